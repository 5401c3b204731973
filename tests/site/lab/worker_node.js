// Runs the laboratory's training Worker (book/_assets/ae-lab-worker.js) under Node for tests/site/test_lab_worker.py,
// twice on the same run: once checking in its own loop, once with its checks sent to a second instance of the same
// code, the checker, over a MessageChannel, as ae-lab.js starts them in the page. Reads one JSON job on stdin
// ({assets, grammar, config, recipe, watch}) and writes what each run told the page: the validation accuracy by
// step, where it came from (the trainer's "progress" or the checker's "valid"), and the steps the trainer took.
"use strict";
const fs = require("fs");
const path = require("path");

const job = JSON.parse(fs.readFileSync(0, "utf8"));
const math = require(path.join(job.assets, "ae-lab-math.js"));
const M = math.assemble(math.PARTS.map((name) => require(path.join(job.assets, "lab", name + ".js"))));
const source = fs.readFileSync(path.join(job.assets, "ae-lab-worker.js"), "utf8");
const aeLabWorker = new Function(source + "\nreturn aeLabWorker;")();

// A Worker's global scope as the Worker's code sees it: messages it posts go to `seen`, tagged with its name.
function worker(name, seen, done) {
  const scope = {
    setTimeout: setTimeout,
    postMessage(msg) {
      seen.push({ from: name, msg: msg });
      done();
    },
  };
  aeLabWorker(M, scope);
  return scope;
}

function run(withChecker) {
  return new Promise((resolve) => {
    const seen = [];
    const checks = Math.floor(job.recipe.steps / job.recipe.eval_every);
    const finished = () => {
      const valid = seen.filter((s) => s.msg.type === "valid" || (s.msg.type === "progress" && s.msg.valid !== null));
      if (seen.some((s) => s.msg.type === "done") && valid.length >= checks) resolve(seen);
    };
    const trainer = worker("trainer", seen, finished);
    const start = { type: "start", grammar: job.grammar, config: job.config, recipe: job.recipe, dataSeed: 0,
      nTest: job.recipe.n_test, watch: job.watch };
    if (withChecker) {
      const checker = worker("checker", seen, finished);
      const channel = new MessageChannel();
      checker.onmessage({ data: { type: "checker", port: channel.port2 } });
      start.checks = channel.port1;
    }
    trainer.onmessage({ data: start });
  });
}

function summary(seen) {
  return {
    valid: seen
      .filter((s) => s.msg.type === "valid" || (s.msg.type === "progress" && s.msg.valid !== null))
      .map((s) => ({ from: s.from, type: s.msg.type, step: s.msg.step, valid: s.msg.valid, seconds: s.msg.seconds })),
    steps: seen.filter((s) => s.msg.type === "done").map((s) => s.msg.step)[0],
    progressWithValid: seen.filter((s) => s.msg.type === "progress" && s.msg.valid !== null).length,
  };
}

(async () => {
  const inline = summary(await run(false));
  const checked = summary(await run(true));
  process.stdout.write(JSON.stringify({ inline: inline, checked: checked }) + "\n");
  process.exit(0);
})();
