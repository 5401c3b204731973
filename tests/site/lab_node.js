// Drives the laboratory's mathematics (book/_assets/ae-lab-math.js and its parts, lab/*.js) under Node for
// tests/site/test_lab_math.py: reads one JSON job on stdin, runs its tasks with the page's own code and writes
// their results as JSON on stdout.
//
// A job: {assets: the folder of ae-lab-math.js, wasm: the compiled lab/gemm.wat (base64), tasks: [{kind, ...}]}.
// Arrays of parameters travel as base64 float64 ({name: base64}) so that every bit arrives; the committed
// parameters as the site exports them.
"use strict";
const fs = require("fs");
const path = require("path");

function f64(text) {
  const b = Buffer.from(text, "base64");
  return new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}
function b64(arr) {
  return Buffer.from(new Float64Array(arr).buffer).toString("base64");
}
function params64(obj) {
  const out = {};
  for (const k of Object.keys(obj)) out[k] = f64(obj[k]);
  return out;
}
function batchOf(G, M, pairs) {
  return M.stack(G, pairs.map((p) => ({ src: Int32Array.from(p.src), tgt: Int32Array.from(p.tgt), align: Int32Array.from(p.align) })));
}

const job = JSON.parse(fs.readFileSync(0, "utf8"));
const math = require(path.join(job.assets, "ae-lab-math.js"));
const M = math.assemble(math.PARTS.map((name) => require(path.join(job.assets, "lab", name + ".js"))));
// The products in WebAssembly from the job's compiled lab/gemm.wat, as the served lab/kernels.js has them.
if (job.wasm && !M.parts.kernels.useWasm(job.wasm)) throw new Error("Node did not compile lab/gemm.wat's bytes");
const out = [];
for (const task of job.tasks) {
  const t0 = process.hrtime.bigint();
  const G = task.grammar;
  let r;
  if (task.kind === "greedy") {
    // the page's path: the exported (float32, base64) parameters, decoded and frozen as the page does
    const p = task.params ? params64(task.params) : M.freeze(M.decodeParams(task.model));
    const cfg = task.config;
    r = task.sentences.map((src) => {
      const g = M.greedy(p, cfg, Int32Array.from(src), 1, src.length, src.length + 1, task.trace, G.bos_id);
      return { tokens: Array.from(g.tokens), weights: g.weights ? b64(g.weights) : null, trace: g.trace };
    });
  } else if (task.kind === "encoder_reads") {
    // what each self-attention layer of the encoder reads (Seq2Seq.encoder_reads), sentence by sentence
    const p = M.freeze(M.decodeParams(task.model));
    r = task.sentences.map((src) => M.encoderReads(p, task.config, Int32Array.from(src), 1, src.length).map(b64));
  } else if (task.kind === "decode") {
    // the page's check of an export: every parameter present with this model's shape
    try {
      r = { names: Object.keys(M.decodeParams(task.model)) };
    } catch (err) {
      r = { error: err.message };
    }
  } else if (task.kind === "grads") {
    const p = params64(task.params);
    const res = M.lossAndGrads(p, task.config, batchOf(G, M, task.batch));
    const grads = {};
    for (const k of Object.keys(res.grads)) grads[k] = b64(res.grads[k]);
    r = { loss: res.loss, grads: grads };
  } else if (task.kind === "train_steps") {
    // the optimiser: clipping, Adam and the schedule over given batches, from given parameters
    const p = params64(task.params);
    const opt = new M.Adam(p, task.recipe.beta1, task.recipe.beta2, task.recipe.adam_eps);
    const losses = [],
      norms = [],
      lrs = [];
    task.batches.forEach((pairs, step) => {
      const res = M.lossAndGrads(p, task.config, batchOf(G, M, pairs));
      norms.push(M.clipGlobalNorm(res.grads, task.recipe.clip_norm));
      lrs.push(M.learningRate(task.recipe, step));
      opt.update(p, res.grads, lrs[step]);
      losses.push(res.loss);
    });
    const after = {};
    for (const k of Object.keys(p)) after[k] = b64(p[k]);
    r = { losses: losses, norms: norms, lrs: lrs, params: after };
  } else if (task.kind === "schedule") {
    r = task.steps.map((s) => M.learningRate(task.recipe, s));
  } else if (task.kind === "parse") {
    r = task.sentences.map((words) => {
      const res = M.parse(G, words);
      if (res.error) return { error: res.error };
      return { src: Array.from(res.pair.src), tgt: Array.from(res.pair.tgt), align: Array.from(res.pair.align) };
    });
  } else if (task.kind === "next") {
    r = task.prefixes.map((words) => M.nextClasses(G, words));
  } else if (task.kind === "sample") {
    const s = M.makeSplits(G, task.seed, task.n_train, task.n_valid, task.n_test);
    r = ["train", "valid", "test"].map((k) => s[k].map((p) => p.words.src));
    const rng = new M.Rng(task.seed);
    const batches = M.lengthBatches(G, s.train, task.batch_size, rng);
    r = { splits: r, batch_sizes: batches.map((b) => [b.N, b.T]) };
  } else if (task.kind === "init") {
    const p = M.initParams(task.config, new M.Rng(task.seed));
    const stats = {};
    for (const k of Object.keys(p)) {
      const a = p[k];
      let s = 0,
        s2 = 0;
      for (let i = 0; i < a.length; i++) {
        s += a[i];
        s2 += a[i] * a[i];
      }
      stats[k] = { size: a.length, mean: s / a.length, std: Math.sqrt(s2 / a.length - (s / a.length) ** 2) };
    }
    r = { stats: stats, shapes: M.shapes(task.config) };
  } else if (task.kind === "evaluate") {
    const p = task.params ? params64(task.params) : M.decodeParams(task.model);
    const pairs = task.pairs.map((q) => ({ src: Int32Array.from(q.src), tgt: Int32Array.from(q.tgt), align: Int32Array.from(q.align) }));
    r = M.evaluate(p, task.config, G, pairs, true, 256);
  } else if (task.kind === "train_run") {
    // a short run of the page's trainer (as the Worker drives it): the losses must fall
    const splits = M.makeSplits(G, task.data_seed, task.recipe.n_train, task.recipe.n_valid, 0);
    const tr = new M.Trainer(G, task.config, task.recipe, splits);
    for (let i = 0; i < task.steps; i++) tr.step();
    r = { losses: tr.losses };
  } else {
    throw new Error("unknown task " + task.kind);
  }
  out.push({ kind: task.kind, result: r, ms: Number(process.hrtime.bigint() - t0) / 1e6 });
}
process.stdout.write(JSON.stringify(out));
