// Drives what the laboratory does with a reader's words under Node for tests/site/test_lab_words.py: the page's
// parser (lab/data.js, through ae-lab-math.js) on typed words, and ae-ui.js's readersWord on any text. Reads one
// JSON job on stdin ({assets, grammar, sentences: [[word, ...]], texts: [text]}) and writes
// {parsed: [{error} or {src}], next: [{allowed} or {error}], quoted: [text]} on stdout.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const job = JSON.parse(fs.readFileSync(0, "utf8"));
const math = require(path.join(job.assets, "ae-lab-math.js"));
const M = math.assemble(math.PARTS.map((name) => require(path.join(job.assets, "lab", name + ".js"))));
const page = { self: {} }; // ae-ui.js sets self.AEUI; nothing of the page's document is touched at load
vm.runInNewContext(fs.readFileSync(path.join(job.assets, "ae-ui.js"), "utf8"), page);
const UI = page.self.AEUI;
const G = job.grammar;
process.stdout.write(
  JSON.stringify({
    parsed: job.sentences.map((words) => {
      const r = M.parse(G, words);
      return r.error ? { error: r.error } : { src: Array.from(r.pair.src) };
    }),
    next: job.sentences.map((words) => M.nextClasses(G, words)),
    quoted: job.texts.map((text) => UI.readersWord(text)),
    max: UI.WORD_MAX,
  })
);
