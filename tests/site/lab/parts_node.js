// Drives the parts of the laboratory's mathematics (book/_assets/lab/*.js) one by one under Node for
// tests/site/test_lab_parts.py: reads one JSON job on stdin, runs each task on a part with the inputs it
// gives, and writes the part's outputs as JSON on stdout (or {error}, the message of what it threw).
//
// A job: {assets: the folder of ae-lab-math.js, wasm: the compiled lab/gemm.wat (base64), tasks: [{part, sabotage,
// ...inputs}]}. Arrays travel as base64 float64, time-major where the parts keep them so (the test transposes the
// package's side). Each task gets the parts put together afresh; with `sabotage` naming a part, that part's
// backward pass is made wrong by a small amount first (the negative control: the part's own comparison must then
// fail).
"use strict";
const fs = require("fs");
const path = require("path");

function f64(text) {
  const b = Buffer.from(text, "base64");
  return new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}
function b64(arr, n) {
  return Buffer.from(Float64Array.from(n === undefined ? arr : arr.subarray(0, n)).buffer).toString("base64");
}
function params(obj) {
  const out = {};
  for (const k of Object.keys(obj)) out[k] = f64(obj[k]);
  return out;
}
function grads(g) {
  const out = {};
  for (const k of Object.keys(g)) out[k] = b64(g[k]);
  return out;
}

const job = JSON.parse(fs.readFileSync(0, "utf8"));
const math = require(path.join(job.assets, "ae-lab-math.js"));
const parts = math.PARTS.map((name) => require(path.join(job.assets, "lab", name + ".js")));
// The products in WebAssembly from the job's compiled lab/gemm.wat, as the served lab/kernels.js has them.
function products(lab) {
  if (job.wasm && !lab.kernels.useWasm(job.wasm)) throw new Error("Node did not compile lab/gemm.wat's bytes");
}

// A wrapper that runs a method, then spoils one number it wrote (about 1 %).
function after(obj, name, spoil) {
  const original = obj[name];
  obj[name] = function () {
    const result = original.apply(this, arguments);
    spoil(arguments, this);
    return result;
  };
}
// The parts with a sabotage of their own; any other part is a score (its dL/ds) or an order (its carry's gradient)
// of the registries, lab.scorers.SCORES and lab.orders.ORDERS, so that a part added there has its negative control.
const SABOTAGE = {
  gru: (lab) => after(lab.gru, "stepBackward", (a) => (a[9][a[10] + 2 * a[1]] *= 1.01)), // dn_pre of the first row
  encoder: (lab) => after(lab.encoder.RecurrentEncoder.prototype, "backward", (a) => (a[3].src_emb[0] *= 1.01)),
  none: (lab) => after(lab.scorers.FixedSummary.prototype, "backward", (a) => (a[3].m[0] *= 1.01)),
  learned: (lab) => after(lab.positions.LearnedPositions.prototype, "backward", (a) => (a[3].pos_emb[0] *= 1.01)),
  // the sinusoidal table has no backward: its forward gives a spoiled copy (cos 0 = 1 at row 0, column 1)
  sinusoidal: (lab) => {
    const forward = lab.positions.SinusoidalPositions.prototype.forward;
    lab.positions.SinusoidalPositions.prototype.forward = function () {
      const P = Float64Array.from(forward.apply(this, arguments));
      P[1] *= 1.01;
      return P;
    };
  },
  layer: (lab) => after(lab.attention_layer.SelfAttentionLayer.prototype, "backward", (a, self) => (a[3][self.prefix + "W_1"][0] *= 1.01)),
  self_attention: (lab) => after(lab.attention_encoder.SelfAttentionEncoder.prototype, "backward", (a) => (a[3].sa_in_W[0] *= 1.01)),
};
function sabotage(lab, part) {
  if (SABOTAGE[part]) return SABOTAGE[part](lab);
  const score = lab.scorers.SCORES[part],
    order = lab.orders.ORDERS[part];
  if (score) return after(score.prototype, "scoresBackward", (a) => (a[6][a[7]] *= 1.01)); // dL/ds of the first row
  if (order) return after(order.prototype, "stepBackward", (a) => (a[3].dS[0] *= 1.01)); // the carry
  throw new Error("no part " + part + " to sabotage");
}

// The registries of the parts, as the package has them (scorers.SCORES, orders.ORDERS, seq2seq.ENCODERS,
// positions.POSITIONS): for each name, in order, the class's own name and the shapes of the parameters its init
// draws for the task's config (an encoder for the config naming it, positions for the encoder's width).
function registryTask(lab, task) {
  const out = {};
  const made = {
    scores: (Cls) => new Cls(task.config),
    orders: (Cls) => new Cls(task.config),
    encoders: (Cls, key) => lab.seq2seq.encoderPart(Object.assign({}, task.config, { encoder: key })),
    positions: (Cls) => new Cls(2 * task.config.d_enc),
  };
  const registries = { scores: lab.scorers.SCORES, orders: lab.orders.ORDERS, encoders: lab.seq2seq.ENCODERS, positions: lab.positions.POSITIONS };
  for (const [kind, registry] of Object.entries(registries)) {
    out[kind] = Object.keys(registry).map((key) => {
      const params = {};
      made[kind](registry[key], key).init((name, shape) => (params[name] = shape));
      return { key: key, name: registry[key].prototype.name, params: params };
    });
  }
  return out;
}

function zerosOf(p) {
  const g = {};
  for (const k of Object.keys(p)) g[k] = new Float64Array(p[k].length);
  return g;
}

// The score part alone: reads of U steps with given query states, then their backward pass.
function scoreTask(lab, task) {
  const cfg = task.config,
    { N, T, U } = task,
    d_h = 2 * cfg.d_enc,
    d_s = cfg.d_dec;
  const S = lab.scorers,
    scorer = cfg.attention ? new S.SCORES[cfg.score](cfg) : new S.FixedSummary(cfg);
  const p = params(task.params),
    H = f64(task.H),
    m = f64(task.m);
  const steps = {
    tag: "t",
    N,
    T,
    U,
    shift: 0,
    S: f64(task.S), // (U, N, d_s): the query of each step
    E: new Float64Array(U * N * T),
    A: new Float64Array(U * N * T),
    C: new Float64Array(U * N * d_h),
    ACT: scorer.tapeWidth ? new Float64Array(U * N * T * scorer.tapeWidth) : null,
  };
  const source = { N, T, H, K: scorer.keys(p, H, N, T, "t"), m };
  for (let t = 0; t < U; t++) scorer.read(p, t, steps, source);
  const grad = { T: {}, G: f64(task.G), DE: new Float64Array(U * N * T) };
  const dSource = { H: new Float64Array(N * T * d_h), K: scorer.keyWidth ? new Float64Array(N * T * scorer.keyWidth) : null, m: new Float64Array(N * d_h) };
  const dS = new Float64Array(U * N * d_s);
  for (let t = U - 1; t >= 0; t--) scorer.readBackward(p, t, steps, source, dSource, grad, dS, t * N * d_s);
  const g = zerosOf(p);
  scorer.backward(p, steps, source, dSource, grad, g);
  return {
    keys: source.K ? b64(source.K, N * T * scorer.keyWidth) : null,
    weights: scorer.weighted ? b64(steps.A) : null,
    contexts: b64(steps.C),
    dS: b64(dS),
    dH: b64(dSource.H),
    dm: b64(dSource.m),
    grads: grads(g),
  };
}

// The order part with a score: U decoder steps from s_0 and the embedding inputs, then their backward pass.
function orderTask(lab, task) {
  const cfg = task.config,
    { N, T, U } = task,
    d_h = 2 * cfg.d_enc,
    d_s = cfg.d_dec;
  const parts = lab.seq2seq.decoderParts(cfg),
    order = parts.order,
    scorer = parts.scorer,
    d_o = order.outWidth;
  const p = params(task.params),
    H = f64(task.H),
    m = f64(task.m),
    XE = f64(task.XE);
  const steps = {
    tag: "o",
    N,
    T,
    U,
    shift: order.shift,
    S: new Float64Array((U + 1) * N * d_s),
    XE: new Float64Array(N * 3 * d_s),
    E: new Float64Array(U * N * T),
    A: new Float64Array(U * N * T),
    C: new Float64Array(U * N * d_h),
    O: new Float64Array(U * N * d_o),
    ACT: scorer.tapeWidth ? new Float64Array(U * N * T * scorer.tapeWidth) : null,
    cache: lab.gru.cache("odec", U * N, d_s),
  };
  steps.S.set(f64(task.s0));
  const source = { N, T, H, K: scorer.keys(p, H, N, T, "o"), m };
  order.start(steps);
  for (let t = 0; t < U; t++) {
    steps.XE.set(XE.subarray(t * N * 3 * d_s, (t + 1) * N * 3 * d_s));
    order.step(p, t, steps, scorer, source);
  }
  const grad = {
    T: {},
    dO: f64(task.dO),
    DXP: new Float64Array(U * N * 3 * d_s),
    G: new Float64Array(U * N * d_h),
    DE: new Float64Array(U * N * T),
    dS: new Float64Array(N * d_s),
    dHT: new Float64Array(N * d_s),
  };
  const dSource = { H: new Float64Array(N * T * d_h), K: scorer.keyWidth ? new Float64Array(N * T * scorer.keyWidth) : null, m: new Float64Array(N * d_h) };
  for (let t = U - 1; t >= 0; t--) order.stepBackward(p, t, steps, grad, scorer, source, dSource);
  const g = zerosOf(p);
  scorer.backward(p, steps, source, dSource, grad, g);
  order.backward(p, steps, grad, g);
  lab.gru.paramGrads(U * N, d_s, grad.DXP, steps.S, steps.cache.rh, g.dec_U);
  return {
    outputs: b64(steps.O),
    states: b64(steps.S.subarray(N * d_s, (U + 1) * N * d_s)),
    weights: scorer.weighted ? b64(steps.A) : null,
    dXp: b64(grad.DXP),
    gC: b64(grad.G),
    ds0: b64(grad.dS),
    dH: b64(dSource.H),
    dm: b64(dSource.m),
    grads: grads(g),
  };
}

function gruTask(lab, task) {
  const { N, d } = task;
  const XP = f64(task.xp),
    H = f64(task.h),
    U = f64(task.U),
    dHn = f64(task.dh);
  const out = new Float64Array(N * d),
    c = lab.gru.cache("tg", N, d);
  lab.gru.step(N, d, XP, 0, H, 0, U, out, 0, c, 0);
  const Ut = lab.kernels.transpose(U, 0, d, 3 * d, d, new Float64Array(3 * d * d));
  const DXP = new Float64Array(N * 3 * d),
    dPrev = new Float64Array(N * d),
    dU = new Float64Array(3 * d * d);
  lab.gru.stepBackward(N, d, dHn, 0, c, 0, H, 0, Ut, DXP, 0, dPrev, 0);
  lab.gru.paramGrads(N, d, DXP, H, c.rh, dU);
  return { h: b64(out), dxp: b64(DXP), dh: b64(dPrev), dU: b64(dU) };
}

// The encoder the config names (seq2seq.ENCODERS): annotations, each layer's weights, every gradient, the summary
// and its backward (added into zeros).
function encoderTask(lab, task) {
  const cfg = task.config,
    { N, T } = task,
    d_h = 2 * cfg.d_enc;
  const p = params(task.params),
    src = Int32Array.from(task.src);
  const encoder = lab.seq2seq.encoderPart(cfg);
  const r = encoder.encode(p, src, N, T, true, "e");
  const H = Float64Array.from(r.H.subarray(0, N * T * d_h));
  const weights = r.cache.weights.length ? r.cache.weights.map((A) => Array.from(A.subarray(0, N * T * T))).flat() : null;
  const m = new Float64Array(N * d_h),
    dHm = new Float64Array(N * T * d_h);
  encoder.summary(H, N, T, m);
  encoder.summaryBackward(f64(task.dm), N, T, dHm);
  const g = zerosOf(p);
  encoder.backward(p, f64(task.dH), r.cache, g);
  return { H: b64(H), weights: weights && b64(weights), m: b64(m), dHm: b64(dHm), grads: grads(g) };
}

// A positions part alone: P (T, d) and its parameters' gradients from dL/dP.
function positionsTask(lab, task) {
  const part = new lab.positions.POSITIONS[task.name](task.d);
  const p = params(task.params);
  const P = part.forward(p, task.T);
  const g = zerosOf(p);
  part.backward(p, f64(task.dP), task.T, g);
  return { P: P && b64(P, task.T * task.d), grads: grads(g) };
}

// One self-attention layer: its output and weights from Z, then dL/dZ and its gradients from dL/dz''.
function layerTask(lab, task) {
  const { N, T, d } = task;
  const layer = new lab.attention_layer.SelfAttentionLayer(2, d, task.d_ff, task.tied, task.causal);
  const p = params(task.params);
  const r = layer.forward(p, f64(task.Z), N, T, "l");
  const out = { out: b64(r.out, N * T * d), weights: b64(r.A, N * T * T) };
  const g = zerosOf(p);
  out.dZ = b64(layer.backward(p, f64(task.dOut), r.cache, g, "l"), N * T * d);
  out.grads = grads(g);
  return out;
}

const TASKS = { gru: gruTask, encoder: encoderTask, positions: positionsTask, layer: layerTask, score: scoreTask, order: orderTask, registry: registryTask };
// A task that throws (a part missing from a registry, say) gives {error}, and the others still run.
const out = job.tasks.map((task) => {
  const lab = math.assemble(parts).parts; // afresh: a sabotage stays in its task
  products(lab);
  try {
    if (task.sabotage) sabotage(lab, task.sabotage);
    return TASKS[task.part](lab, task);
  } catch (err) {
    return { error: String(err && err.message) };
  }
});
process.stdout.write(JSON.stringify(out));
