// Build-time math for the website: typesets a page's TeX into MathJax CommonHTML markup with Node, so pages
// ship no MathJax script (about 1.1 MiB) and show their equations at first paint.
// Called by ae_site.py once per page: reads {"mathjax": dir, "fontURL": url, "items": [{"tex", "display"}]}
// as JSON on stdin and writes {"html": [...], "css": "..."} (the markup of each item and the stylesheet
// for the glyphs this page uses) as JSON on stdout. MathJax itself is fetched by scripts/fetch_assets.sh.
"use strict";

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const job = JSON.parse(input);
  require(job.mathjax + "/es5/node-main.js")
    .init({
      loader: { load: ["input/tex", "output/chtml", "a11y/assistive-mml"] },
      tex: { packages: { "[+]": ["ams", "newcommand", "noundefined"] } },
      // scale: the glyphs match the ex-height of the theme's sans-serif text, as MathJax measures it in a browser
      chtml: { fontURL: job.fontURL, adaptiveCSS: true, scale: 1.2 },
      startup: { typeset: false },
    })
    .then((MathJax) => {
      const adaptor = MathJax.startup.adaptor;
      const html = job.items.map((item) => {
        const node = MathJax.tex2chtml(item.tex, { display: item.display });
        return adaptor.outerHTML(node);
      });
      const css = adaptor.textContent(MathJax.chtmlStylesheet());
      process.stdout.write(JSON.stringify({ html: html, css: css }));
    })
    .catch((err) => {
      process.stderr.write(String((err && err.stack) || err));
      process.exit(1);
    });
});
