// Loaded on every page by src/attention_workshop/ae_site.py. An equation wider than the column scrolls inside its own box
// (ae-theme-fixes.css); such a box gets keyboard focus (tabindex 0), so a reader without a pointer can scroll it
// too. A display equation scrolls wherever it overflows. An inline formula (span.math) scrolls only when the
// formula itself is wider than its box (a long formula on a phone): then it gets the class ae-scrolls. Its glyphs
// overhang the formula's box by a few pixels anyway, which the theme clips and which must not bring a scroll bar.
(function () {
  "use strict";
  function mark() {
    document.querySelectorAll('div.math > mjx-container[display="true"], span.math').forEach(function (box) {
      var scrolls = box.scrollWidth > box.clientWidth + 1;
      if (box.tagName === "SPAN") {
        var formula = box.querySelector("mjx-math");
        scrolls = !!formula && formula.getBoundingClientRect().width > box.clientWidth + 1;
        box.classList.toggle("ae-scrolls", scrolls);
      }
      if (scrolls) box.setAttribute("tabindex", "0");
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
