// Drives the answer boxes' checker (book/_assets/ae-checks.js) under Node for tests/site/test_checks_js.py: reads
// one JSON job on stdin and writes one JSON result per task on stdout.
//
// A job: {assets: the folder of ae-checks.js, params: {lang: page parameters (attention_core.checks.site.
// page_parameters)}, tasks: [...]}. A task is either an answer, {lang, box, texts}, answered with the finding as
// data and the verdict at the first, second and third wrong answer in a row and on request; or a call of one of
// the script's helpers, {fn, args}, answered with its value ({error} when it throws). Numbers travel as JSON; an
// int argument as {int: "digits"}.
"use strict";
const fs = require("fs");
const path = require("path");

const job = JSON.parse(fs.readFileSync(0, "utf8"));
const C = require(path.join(job.assets, "ae-checks.js"));

function arg(a) {
  if (a && typeof a === "object" && !Array.isArray(a) && "int" in a) return new C.Int(BigInt(a.int));
  if (a && typeof a === "object" && !Array.isArray(a) && "float" in a) return a.float === "nan" ? NaN : a.float === "inf" ? Infinity : a.float === "-inf" ? -Infinity : a.float;
  if (Array.isArray(a)) return a.map(arg);
  return a;
}

const out = job.tasks.map((task) => {
  try {
    if (task.fn) {
      const value = C[task.fn].apply(null, task.args.map(arg));
      return { value: typeof value === "bigint" ? String(value) : value };
    }
    C.use(job.params[task.lang]);
    const decided = C.decide(task.box, task.texts);
    const f = decided.finding;
    const counted = f.judged && !f.ok();
    return {
      data: C.asData(f),
      slot: decided.slot,
      verdicts: [1, 2, 3].map((n) => C.feedback(f, counted ? n : 0, false)),
      shown: C.feedback(f, counted ? 1 : 0, true),
    };
  } catch (err) {
    return { error: String(err && err.stack ? err.stack : err) };
  }
});
process.stdout.write(JSON.stringify(out));
