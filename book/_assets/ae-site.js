// Loaded on every page by src/attention_workshop/ae_site.py. An equation wider than the column scrolls inside its own box
// (ae-theme-fixes.css); such a box gets keyboard focus (tabindex 0), so a reader without a pointer can scroll it
// too. A display equation scrolls wherever it overflows. An inline formula (span.math) scrolls only when the
// formula itself is wider than its box (a long formula on a phone): then it gets the class ae-scrolls. Its glyphs
// overhang the formula's box by a few pixels anyway, which the theme clips and which must not bring a scroll bar.
(function () {
  "use strict";
  function scrolls(box) {
    if (box.tagName !== "SPAN") return box.scrollWidth > box.clientWidth + 1;
    var formula = box.querySelector("mjx-container > svg");
    return !!formula && formula.getBoundingClientRect().width > box.clientWidth + 1;
  }
  // Every width is read before any box is marked: a read after a mark would lay the page out again, once per box.
  function mark() {
    var boxes = Array.from(document.querySelectorAll('div.math > mjx-container[display="true"], span.math'));
    boxes.map(scrolls).forEach(function (wide, i) {
      var box = boxes[i];
      if (box.tagName === "SPAN") box.classList.toggle("ae-scrolls", wide);
      if (wide) box.setAttribute("tabindex", "0");
      else box.removeAttribute("tabindex");
    });
  }
  var queued = false;
  function later() {
    if (queued) return;
    queued = true;
    requestAnimationFrame(function () {
      queued = false;
      mark();
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mark);
  else mark();
  window.addEventListener("load", mark); // after the fonts: widths are final
  window.addEventListener("resize", later);
  document.addEventListener("toggle", later, true); // a solution opened: its formulas are laid out only now
})();
