// The stored-widget renderer (@jupyter-widgets/html-manager, served from _static/) finds its icon fonts
// relative to its own module path; point that path at _static/ so no font is requested from elsewhere.
(function () {
  var root = document.documentElement.getAttribute("data-content_root") || "./";
  var staticDir = new URL(root + "_static", document.baseURI).href;
  var config = { paths: { "@jupyter-widgets/html-manager/dist": staticDir } };
  if (typeof window.require === "function" && window.require.config) {
    window.require.config(config);
  } else {
    window.require = config; // require.js reads a pre-defined `require` object as its configuration
  }
})();
