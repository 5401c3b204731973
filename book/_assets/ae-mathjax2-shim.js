// The stored-widget renderer typesets widget labels through MathJax 2's MathJax.Hub.Queue; the book loads
// MathJax 3. Forward that call to MathJax 3's typesetting so that it neither fails nor logs an error.
(function () {
  var mj = (window.MathJax = window.MathJax || {});
  if (!mj.Hub) {
    mj.Hub = {
      Queue: function () {
        if (window.MathJax.typesetPromise) {
          window.MathJax.typesetPromise().catch(function () {});
        }
      },
    };
  }
})();
