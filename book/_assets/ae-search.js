// Loaded on the search page only, by src/attention_workshop/ae_assets.py: two changes to the results of Sphinx's search page
// (searchtools.js, which fetches each page found and shows a summary of its text around the query).
// - The summary skips what the website writes around a page's text: the language switch and the PDF link, the
//   theme's print-only contents ("Contents", 目录) and the line an explorer shows without JavaScript.
// - A hit on a glossary term (an index entry that links to the term) is titled with the term the query found and
//   its page, and its summary is the entry's term lines (every language's) and its definition; otherwise every such hit is titled with the page and summarised by the
//   term alone.
(function () {
  "use strict";
  // searchtools.js declares Search with const: a global binding, not a property of window
  if (typeof Search === "undefined" || !Search.htmlToText || !Search._performSearch) return;
  var SKIP = ".ae-lang-switch-bar, #jb-print-docs-body, .ae-explorer";

  function byId(doc, anchor) {
    var id = anchor.slice(1);
    try {
      id = decodeURIComponent(id);
    } catch (e) {
      // an id with a literal "%": use it as it is
    }
    return doc.getElementById(id);
  }

  var htmlToText = Search.htmlToText;
  Search.htmlToText = function (htmlString, anchor) {
    var doc = new DOMParser().parseFromString(htmlString, "text/html");
    doc.querySelectorAll(SKIP + ", .headerlink, script, style").forEach(function (el) {
      el.remove();
    });
    var term = anchor ? byId(doc, anchor) : null;
    if (term && term.tagName === "DT") {
      // every term line of the entry (the page's own term and the other languages' lines, {lang}`zh: ...`), so
      // the summary names whichever of them the hit is titled with, then the definition
      var first = term;
      while (first.previousElementSibling && first.previousElementSibling.tagName === "DT") {
        first = first.previousElementSibling;
      }
      var lines = [];
      var definition = first;
      for (; definition && definition.tagName === "DT"; definition = definition.nextElementSibling) {
        lines.push(definition.textContent.trim());
      }
      return lines.join(" · ") + " " + (definition ? definition.textContent : "");
    }
    return htmlToText(doc.documentElement.outerHTML, anchor);
  };

  function escape(text) {
    var span = document.createElement("span");
    span.textContent = text;
    return span.innerHTML;
  }

  var entries = null; // "file id" -> the index entries' texts (an entry's terms: one per term line, any language)
  function entryOf(file, anchor, query) {
    if (entries === null) {
      entries = {};
      var index = (Search._index && Search._index.indexentries) || {};
      Object.keys(index).forEach(function (entry) {
        index[entry].forEach(function (found) {
          var key = found[0] + " " + found[1];
          (entries[key] = entries[key] || []).push(entry);
        });
      });
    }
    var files = Search._index.filenames;
    for (var i = 0; i < files.length; i++) {
      if (files[i] !== file) continue;
      var terms = entries[i + " " + anchor.slice(1)] || [];
      // the term the query found (searchtools.js's own test for an index entry), else the entry's first
      var lower = String(query || "").toLowerCase().trim();
      var found = terms.filter(function (term) {
        return lower && term.includes(lower) && lower.length >= term.length / 2;
      });
      return found.length ? found[0] : terms[0];
    }
    return undefined;
  }

  var performSearch = Search._performSearch;
  Search._performSearch = function (query) {
    var results = performSearch.apply(this, arguments);
    results.forEach(function (result) {
      // [docname, title, anchor, description, score, filename]
      if (!result[3] && /^#term-/.test(result[2] || "")) {
        var entry = entryOf(result[5], result[2], query);
        if (entry) result[1] = escape(entry) + " (" + result[1] + ")";
      }
    });
    return results;
  };
})();
