// The helpers the website's live explorers (ae-explorers.js) and lesson 07's laboratory (ae-lab.js) share:
// labels of the page's edition, numbers as text, a reader's word quoted safely, and elements built as nodes (never
// parsed HTML).
//
// Loaded before them on every page that holds an explorer (src/attention_workshop/ae_twins.py); it sets self.AEUI.
// Every word they show comes from the page's edition: the labels of the inline <script id="ae-params"> written at
// build time from attention_core.explorers.site.LABELS (English or Chinese); only numbers are made here.
(function (scope) {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";
  var LABELS = {};

  // The page's parameters (#ae-params), read once; their labels become the ones t() fills. null if absent.
  var params;
  function pageParams() {
    if (params === undefined) {
      var source = document.getElementById("ae-params");
      params = source ? JSON.parse(source.textContent) : null;
      if (params && params.labels) LABELS = params.labels;
    }
    return params;
  }

  // A label with its {placeholders} filled from vals (strings or numbers); the key itself if there is no label.
  function t(key, vals) {
    return String(LABELS[key] === undefined ? key : LABELS[key]).replace(/\{(\w+)\}/g, function (m, name) {
      return vals && vals[name] !== undefined ? String(vals[name]) : m;
    });
  }

  // A label as nodes: its placeholders may be DOM nodes (e.g. a <span data-ae-out> the tests read) or text.
  function tNodes(key, vals) {
    return String(LABELS[key]).split(/(\{\w+\})/).filter(Boolean).map(function (part) {
      var m = /^\{(\w+)\}$/.exec(part);
      var v = m && vals[m[1]] !== undefined ? vals[m[1]] : part;
      return typeof v === "object" ? v : document.createTextNode(String(v));
    });
  }

  // x with `digits` decimals; never "-0.000" (a rounded negative zero is shown as 0); "–" when x is not a number.
  function fmt(x, digits) {
    if (x === null || x === undefined || !isFinite(x)) return "–";
    var text = x.toFixed(digits);
    return /^-0\.0*$/.test(text) ? text.slice(1) : text;
  }

  // A reader's word (or words) as a message quotes it, whatever the reader typed: between U+2068 FIRST STRONG
  // ISOLATE and U+2069 POP DIRECTIONAL ISOLATE, so that its own direction (a right-to-left mark or letter) stays
  // inside it and cannot reorder the message around it; without the explicit bidi controls it may hold
  // (U+202A-U+202E, U+2066-U+2069: a stray U+2069 would end the isolation early), and at most WORD_MAX characters
  // (code points, so a character outside the BMP is never split): a longer one is its first WORD_MAX - 1 and "…".
  // The label around it gives the quotation marks (“{word}”).
  var WORD_MAX = 32;
  var BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
  function readersWord(text) {
    var chars = Array.from(String(text).replace(BIDI_CONTROLS, "").slice(0, 2 * WORD_MAX + 2)); // >= WORD_MAX + 1 if cut
    if (chars.length > WORD_MAX) chars = chars.slice(0, WORD_MAX - 1).concat("…");
    return "\u2068" + chars.join("") + "\u2069";
  }

  // An element with attributes (null or undefined ones left out) and children (nodes, strings or numbers).
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (attrs[k] !== null && attrs[k] !== undefined) node.setAttribute(k, attrs[k]);
    });
    [].concat(children === undefined ? [] : children).forEach(function (c) {
      node.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    });
    return node;
  }

  // An SVG element with attributes, appended to parent when given.
  function svg(tag, attrs, parent) {
    var node = document.createElementNS(SVG_NS, tag);
    Object.keys(attrs || {}).forEach(function (k) {
      node.setAttribute(k, attrs[k]);
    });
    if (parent) parent.appendChild(node);
    return node;
  }

  scope.AEUI = { pageParams: pageParams, t: t, tNodes: tNodes, fmt: fmt, readersWord: readersWord, WORD_MAX: WORD_MAX, el: el, svg: svg };
})(self);
