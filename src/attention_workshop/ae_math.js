// Build-time math: typesets formulas with MathJax under Node, so pages ship no MathJax script (about 1.1 MiB).
// Called by ae_math.py: reads {"mathjax": dir, "output": "svg" | "chtml", "fontURL": url (chtml only),
// "items": [{"tex" or "mml", "display"}]} as JSON on stdin and writes {"html": [...], "css": "..."} (the markup of
// each item and MathJax's stylesheet for them) as JSON on stdout. MathJax is fetched by scripts/fetch_assets.sh.
// - "svg", for the website: each formula an inline SVG with each glyph a path of its own (fontCache "none": ae_math.py
//   then writes each outline once per page and draws the glyphs with <use>, _shared_glyphs), and no font to load;
//   the MathML beside it is what a screen reader reads.
// - "chtml", for the PDFs (from the website's MathML): glyphs as text in MathJax's fonts, which the PDF embeds, so
//   a formula stays text a reader can search and copy, and each glyph is stored once.
"use strict";

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const job = JSON.parse(input);
  const svg = job.output === "svg";
  require(job.mathjax + "/es5/node-main.js")
    .init({
      loader: { load: ["input/tex", "input/mml", svg ? "output/svg" : "output/chtml", "a11y/assistive-mml"] },
      tex: { packages: { "[+]": ["ams", "newcommand", "noundefined"] } },
      // scale: the glyphs match the x-height of the theme's sans-serif text, as MathJax measures it in a browser
      svg: { fontCache: "none", scale: 1.2 },
      chtml: { fontURL: job.fontURL, adaptiveCSS: true, scale: 1.2 },
      // A character MathJax's fonts lack (Chinese in \text{...}, the French é) is drawn in a system font, at 0.884
      // of the formula's size. An SVG gives it the width MathJax assumes, since Node cannot measure text: a Chinese
      // character's own width, and 0.45 em for any other (a serif é is 0.39 to 0.52 em at that size).
      liteAdaptor: { cjkCharWidth: 0.884, unknownCharWidth: 0.45 },
      startup: { typeset: false },
    })
    .then((MathJax) => {
      const adaptor = MathJax.startup.adaptor;
      const html = job.items.map((item) => {
        const options = { display: item.display };
        const node =
          item.mml !== undefined
            ? (svg ? MathJax.mathml2svg : MathJax.mathml2chtml)(item.mml, options)
            : (svg ? MathJax.tex2svg : MathJax.tex2chtml)(item.tex, options);
        // ... and held to exactly that width, whatever the reader's font: no gap and no overlap beside it
        for (const text of svg ? adaptor.tags(node, "text") : []) {
          adaptor.setAttribute(text, "textLength", (1000 * adaptor.nodeSize(text)[0]).toFixed(1));
          adaptor.setAttribute(text, "lengthAdjust", "spacingAndGlyphs");
        }
        return adaptor.outerHTML(node);
      });
      const css = adaptor.textContent(svg ? MathJax.svgStylesheet() : MathJax.chtmlStylesheet());
      process.stdout.write(JSON.stringify({ html: html, css: css }));
    })
    .catch((err) => {
      process.stderr.write(String((err && err.stack) || err));
      process.exit(1);
    });
});
