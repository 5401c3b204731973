// Loaded on every page by src/attention_workshop/ae_assets.py. An equation wider than the column scrolls inside its own box
// (ae-theme-fixes.css); such a box gets keyboard focus (tabindex 0), so a reader without a pointer can scroll it
// too. A display equation scrolls wherever it overflows. An inline formula (span.math) scrolls only when the
// formula itself is wider than its box (a long formula on a phone): then it gets the class ae-scrolls. Its glyphs
// overhang the formula's box by a few pixels anyway, which the theme clips and which must not bring a scroll bar.
//
// The widths are read when the browser has laid the formulas out anyway: a ResizeObserver reports each box and its
// formula when first laid out and whenever their size changes (a narrower window, a solution opened, a formula
// drawn wider), so this script never lays the page out on its own. Reading the widths as the page loaded had laid a
// long lesson out once more (lesson 07, CPU slowed 4x as for a phone: a task of about 100 ms, most of it layout and
// style).
(function () {
  "use strict";
  var BOXES = 'div.math > mjx-container[display="true"], span.math';
  function scrolls(box) {
    if (box.tagName !== "SPAN") return box.scrollWidth > box.clientWidth + 1;
    var formula = box.querySelector("mjx-container > svg");
    return !!formula && formula.getBoundingClientRect().width > box.clientWidth + 1;
  }
  // Every width is read before any box is marked: a read after a mark would lay the page out again, once per box.
  function mark(boxes) {
    boxes.map(scrolls).forEach(function (wide, i) {
      var box = boxes[i];
      if (box.tagName === "SPAN") box.classList.toggle("ae-scrolls", wide);
      if (wide) box.setAttribute("tabindex", "0");
      else box.removeAttribute("tabindex");
    });
  }
  function watch() {
    var observer = new ResizeObserver(function (entries) {
      var boxes = [];
      entries.forEach(function (entry) {
        var box = entry.target.closest(BOXES);
        if (box && boxes.indexOf(box) < 0) boxes.push(box);
      });
      mark(boxes);
    });
    document.querySelectorAll(BOXES).forEach(function (box) {
      observer.observe(box);
      var formula = box.querySelector("svg");
      if (formula) observer.observe(formula);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
  else watch();
})();
