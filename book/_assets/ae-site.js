// Loaded on every page by book/_ext/ae_site.py. A display equation wider than the column scrolls inside its
// own box; such a box gets keyboard focus (tabindex 0), so a reader without a pointer can scroll it too.
(function () {
  "use strict";
  function mark() {
    document.querySelectorAll('div.math > mjx-container[display="true"]').forEach(function (box) {
      if (box.scrollWidth > box.clientWidth + 1) box.setAttribute("tabindex", "0");
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
})();
