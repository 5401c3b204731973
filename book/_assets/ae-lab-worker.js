// The Web Worker of the laboratory (lessons 07 to 09): trains a model in the reader's browser, off the page's thread.
//
// ae-lab.js starts it from a Blob made of function sources, the laboratory's mathematics (AELabMath.source():
// ae-lab-math.js and its parts, checked against attention_core.models) and aeLabWorker below, so nothing is fetched and
// it works from file:// too. Messages from the page:
//   {type: "start", grammar, config, recipe, dataSeed, nTest, watch: [source words]}   a new run
//   {type: "pause"} / {type: "resume"}                                                   stop and go on
//   {type: "watch", words}                                                               another sentence to show
// and to the page: "ready" (the data are made), "progress" (losses, the watched sentence's weights and greedy
// translation), "paused", "evaluating", "done" (test accuracy by source length and the trained parameters). The
// grammar's language (G.language) sets the target order of the sentences it samples.
//
// The validation checks run in a second Worker (the checker: the same code, started with {type: "checker", port}),
// which can run on another core: every eval_every steps and at the last the trainer sends the checker a copy of the
// parameters over a MessageChannel ({checks: port} in "start") and trains on; the checker measures greedy token
// accuracy on the validation set and tells the page ("valid": the step, the accuracy, and the run's seconds when it
// was known). Without a checker's port the trainer checks in its own loop and the "progress" of that step carries
// the accuracy.
function aeLabWorker(M, scope) {
  "use strict";
  var run = null;
  var channel = new MessageChannel(); // a message to ourselves yields to pause/resume without a timer's delay
  channel.port1.onmessage = loop;

  function now() {
    return performance.now();
  }

  function post(msg) {
    scope.postMessage(msg);
  }

  // Milliseconds on a clock every Worker of the page shares (performance.now() counts from each one's start).
  function clock() {
    return performance.timeOrigin + now();
  }

  // The checker: validation checks of the parameters the trainer sends, one after another, off the trainer's thread.
  function checker(port) {
    var setup = null;
    port.onmessage = function (event) {
      var m = event.data;
      if (m.type === "setup") setup = m;
      else if (m.type === "check" && setup) {
        var ev = M.evaluate(m.params, setup.cfg, setup.G, setup.valid, false, 256);
        // the run's seconds when the accuracy is known: when the trainer sent it, plus the wait and the check
        post({ type: "valid", step: m.step, valid: M.shares(ev).token, seconds: m.seconds + (clock() - m.at) / 1000 });
      }
    };
  }

  // Seconds of wall time since the run started (making the data included), pauses excluded.
  function seconds() {
    var paused = run.pausedMs + (run.paused ? now() - run.pauseAt : 0);
    return (now() - run.t0 - paused) / 1000;
  }

  function watchPair(words) {
    var parsed = M.parse(run.G, words || []);
    return parsed.pair || null;
  }

  // What the watched sentence reads now: teacher-forced weights over its reference words, and the greedy output.
  function watched() {
    if (!run.watch) return null;
    var p = run.watch;
    var out = M.greedy(run.trainer.params, run.cfg, p.src, 1, p.src.length, p.src.length + 1, false, run.G.bos_id);
    var weights = M.teacherWeights(run.trainer.params, run.cfg, run.G, p);
    return {
      weights: weights ? Array.from(weights) : null, // none for the fixed summary
      tokens: Array.from(out.tokens),
    };
  }

  function start(msg) {
    var t0 = now();
    var G = msg.grammar;
    var recipe = msg.recipe;
    var splits = M.makeSplits(G, msg.dataSeed, recipe.n_train, recipe.n_valid, msg.nTest);
    run = {
      G: G,
      cfg: msg.config,
      recipe: recipe,
      splits: splits,
      trainer: new M.Trainer(G, msg.config, recipe, splits),
      paused: false,
      done: false,
      t0: t0,
      pausedMs: 0,
      pauseAt: 0,
      stepMs: 0,
      sinceLast: [],
      lastPost: 0,
      watch: null,
      checks: msg.checks || null,
    };
    run.watch = watchPair(msg.watch);
    if (run.checks) run.checks.postMessage({ type: "setup", G: G, cfg: msg.config, valid: splits.valid });
    post({ type: "ready", seconds: seconds(), n_train: splits.train.length, n_valid: splits.valid.length, n_test: splits.test.length, watched: watched() });
    scope.setTimeout(schedule, 0);
  }

  function schedule() {
    channel.port2.postMessage(0);
  }

  function loop() {
    if (!run || run.paused || run.done) return;
    var t0 = now();
    var loss = run.trainer.step();
    var t1 = now();
    run.stepMs += t1 - t0;
    run.sinceLast.push(loss);
    var step = run.trainer.steps,
      rc = run.recipe;
    var check = step % rc.eval_every === 0 || step === rc.steps;
    var valid = null;
    if (check && run.checks) {
      // a copy of the parameters (structured clone) to the checker; training goes on meanwhile
      run.checks.postMessage({ type: "check", step: step, seconds: seconds(), at: clock(), params: run.trainer.params });
    } else if (check) {
      var ev = M.evaluate(run.trainer.params, run.cfg, run.G, run.splits.valid, false, 256);
      valid = M.shares(ev).token;
    }
    if (check || step === 1 || t1 - run.lastPost > 200) {
      post({
        type: "progress",
        step: step,
        losses: run.sinceLast,
        seconds: seconds(),
        msPerStep: run.stepMs / step,
        lr: M.learningRate(rc, step - 1),
        valid: valid,
        watched: watched(),
      });
      run.sinceLast = [];
      run.lastPost = now();
    }
    if (step >= rc.steps) {
      finish();
      return;
    }
    schedule();
  }

  function finish() {
    run.done = true;
    post({ type: "evaluating", seconds: seconds() });
    var t0 = now();
    var ev = M.evaluate(run.trainer.params, run.cfg, run.G, run.splits.test, true, 256);
    var buckets = run.recipe.buckets.map(function (b) {
      var s = M.shares(ev, b[0], b[1]);
      return { lo: b[0], hi: b[1], sentences: s.sentences, token: s.token, exact: s.exact };
    });
    var all = M.shares(ev);
    // the trained parameters too: the page composes and steps with them where no committed model exists
    post({ type: "done", step: run.trainer.steps, seconds: seconds(), evalSeconds: (now() - t0) / 1000, buckets: buckets, all: all, watched: watched(), params: run.trainer.params });
  }

  scope.onmessage = function (event) {
    var msg = event.data;
    if (msg.type === "start") start(msg);
    else if (msg.type === "checker") checker(msg.port);
    else if (!run) return;
    else if (msg.type === "pause") {
      if (!run.paused && !run.done) {
        run.paused = true;
        run.pauseAt = now();
        post({ type: "paused", step: run.trainer.steps, seconds: seconds() });
      }
    } else if (msg.type === "resume") {
      if (run.paused && !run.done) {
        run.pausedMs += now() - run.pauseAt;
        run.paused = false;
        schedule();
      }
    } else if (msg.type === "watch") {
      run.watch = watchPair(msg.words);
      post({ type: "progress", step: run.trainer.steps, losses: [], seconds: seconds(), msPerStep: run.stepMs / Math.max(run.trainer.steps, 1), lr: null, valid: null, watched: watched() });
    }
  };
}
