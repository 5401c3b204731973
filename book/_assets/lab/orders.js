// lab/orders.js: the order parts of the decoder, the twins of src/attention_core/models/orders.py: does a step
// read before or after its state update? From the state s_{t-1} and xe = W_e e_tgt(y_{t-1}) + b (steps.XE, N x 3 d_s;
// W_f is the rest of the GRU's input weights, for what is fed beside the embedding):
//   Bahdanau: c_t = read(s_{t-1});  s_t = GRU(s_{t-1}, [e; c_t]);  o_t = [s_t; c_t]
//   Luong:    s_t = GRU(s_{t-1}, [e; s~_{t-1}]);  c_t = read(s_t);  s~_t = tanh(W_c [c_t; s_t] + b_c);  o_t = s~_t
// A part's step is the one decoder step that teacher forcing, greedy decoding and the trace share (seq2seq.js);
// stepBackward sits beside it. The carry from a step to the next is steps.S at t + 1 (and Luong's s~ in steps.HT);
// its gradient, grad.dS (and grad.dHT), goes back the same way. `steps` and `grad` are described in scorers.js;
// beside them the orders use steps.O (U, N, d_o) the outputs o_t, steps.cache the GRU's gates, grad.dO (U, N, d_o)
// dL/do_t and grad.DXP (U, N, 3 d_s) dL/d(the GRU's input projection).
// A part of the laboratory's mathematics: ../ae-lab-math.js puts the parts together.
function aeLabOrders(lab) {
  "use strict";
  var K = lab.kernels,
    buf = K.buf,
    gemm = K.gemm,
    tanh = K.tanh,
    transpose = K.transpose,
    transposed = lab.scorers.transposed;

  // orders.BahdanauOrder: read with s_{t-1}, then update; no parameters of its own.
  function BahdanauOrder(cfg) {
    this.d_e = cfg.d_emb;
    this.d_s = cfg.d_dec;
    this.d_h = 2 * cfg.d_enc;
    this.feedWidth = this.d_h; // c_t joins the embedding in the GRU input
    this.outWidth = this.d_s + this.d_h; // o_t = [s_t; c_t]
    this.shift = 0; // the query of step t is s_{t-1}: steps.S at t
  }
  BahdanauOrder.prototype.name = "bahdanau";
  BahdanauOrder.prototype.init = function () {};
  BahdanauOrder.prototype.start = function () {}; // the carry is s_0 alone

  BahdanauOrder.prototype.step = function (p, t, steps, scorer, source) {
    var N = steps.N,
      d_s = this.d_s,
      d_h = this.d_h,
      d_o = this.outWidth,
      S = steps.S,
      i;
    scorer.read(p, t, steps, source); // alpha_t, c_t with s_{t-1}: before the update
    var XP = buf("dec_xp", N * 3 * d_s);
    XP.set(steps.XE.subarray(0, N * 3 * d_s));
    gemm(N, 3 * d_s, d_h, steps.C, t * N * d_h, d_h, p.dec_W, this.d_e, this.d_e + d_h, XP, 0, 3 * d_s, true); // + W_f c_t
    lab.gru.step(N, d_s, XP, 0, S, t * N * d_s, p.dec_U, S, (t + 1) * N * d_s, steps.cache, t * N * d_s); // s_t
    for (i = 0; i < N; i++) {
      var o = (t * N + i) * d_o;
      steps.O.set(S.subarray((t + 1) * N * d_s + i * d_s, (t + 1) * N * d_s + (i + 1) * d_s), o); // o_t = [s_t; c_t]
      steps.O.set(steps.C.subarray((t * N + i) * d_h, (t * N + i + 1) * d_h), o + d_s);
    }
  };

  BahdanauOrder.prototype.stepBackward = function (p, t, steps, grad, scorer, source, dSource) {
    var N = steps.N,
      d_s = this.d_s,
      d_h = this.d_h,
      d_o = this.outWidth,
      i,
      k;
    var dHn = buf("b_dhn", N * d_s),
      dPrev = buf("b_dsp", N * d_s);
    for (i = 0; i < N; i++) for (k = 0; k < d_s; k++) dHn[i * d_s + k] = grad.dS[i * d_s + k] + grad.dO[(t * N + i) * d_o + k]; // dL/ds_t
    var Ut = transposed(grad, p, "dec_U", 3 * d_s, d_s);
    lab.gru.stepBackward(N, d_s, dHn, 0, steps.cache, t * N * d_s, steps.S, t * N * d_s, Ut, grad.DXP, t * N * 3 * d_s, dPrev, 0);
    // g_c = dL/dc_t: from the output layer and from the state update's input
    for (i = 0; i < N; i++) for (k = 0; k < d_h; k++) grad.G[(t * N + i) * d_h + k] = grad.dO[(t * N + i) * d_o + d_s + k];
    var Wt = transposed(grad, p, "dec_W", 3 * d_s, this.d_e + d_h); // rows d_e.. of W^T: W_f^T
    gemm(N, d_h, 3 * d_s, grad.DXP, t * N * 3 * d_s, 3 * d_s, Wt, this.d_e * 3 * d_s, 3 * d_s, grad.G, t * N * d_h, d_h, true);
    scorer.readBackward(p, t, steps, source, dSource, grad, dPrev, 0); // read with s_{t-1}: adds dL/dq to dL/ds_{t-1}
    grad.dS.set(dPrev.subarray(0, N * d_s));
  };

  BahdanauOrder.prototype.backward = function () {}; // no parameters of its own

  // What was fed beside the embedding at every step: c_t, (U N, d_h) time-major.
  BahdanauOrder.prototype.feeds = function (steps) {
    return steps.C;
  };

  // orders.LuongOrder: update, then read with s_t, then the attentional state s~_t (fed to the next step).
  function LuongOrder(cfg) {
    this.d_e = cfg.d_emb;
    this.d_s = cfg.d_dec;
    this.d_h = 2 * cfg.d_enc;
    this.feedWidth = this.d_s; // s~_{t-1} joins the embedding in the GRU input (input feeding)
    this.outWidth = this.d_s; // o_t = s~_t
    this.shift = 1; // the query of step t is s_t: steps.S at t + 1
  }
  LuongOrder.prototype.name = "luong";

  LuongOrder.prototype.init = function (draw) {
    draw("att_W_c", [this.d_s, this.d_h + this.d_s], 1 / Math.sqrt(this.d_h + this.d_s));
    draw("att_b_c", [this.d_s], 0);
  };

  // The carry before the first step: s_0 (in steps.S) and s~_0 = 0.
  LuongOrder.prototype.start = function (steps) {
    steps.HT = K.zeros(steps.tag + "HT", (steps.U + 1) * steps.N * this.d_s); // s~_0 .. s~_U, time-major
  };

  LuongOrder.prototype.step = function (p, t, steps, scorer, source) {
    var N = steps.N,
      d_s = this.d_s,
      d_h = this.d_h,
      ld = d_h + d_s,
      S = steps.S,
      HT = steps.HT,
      i,
      k;
    var XP = buf("dec_xp", N * 3 * d_s);
    XP.set(steps.XE.subarray(0, N * 3 * d_s));
    gemm(N, 3 * d_s, d_s, HT, t * N * d_s, d_s, p.dec_W, this.d_e, this.d_e + d_s, XP, 0, 3 * d_s, true); // + W_f s~_{t-1}
    lab.gru.step(N, d_s, XP, 0, S, t * N * d_s, p.dec_U, S, (t + 1) * N * d_s, steps.cache, t * N * d_s); // s_t
    scorer.read(p, t, steps, source); // alpha_t, c_t with s_t: after the update
    var o = (t + 1) * N * d_s; // s~_t = tanh(W_c [c_t; s_t] + b_c), in two products (the halves of W_c)
    gemm(N, d_s, d_h, steps.C, t * N * d_h, d_h, p.att_W_c, 0, ld, HT, o, d_s, false);
    gemm(N, d_s, d_s, S, (t + 1) * N * d_s, d_s, p.att_W_c, d_h, ld, HT, o, d_s, true);
    for (i = 0; i < N; i++) for (k = 0; k < d_s; k++) HT[o + i * d_s + k] = tanh(HT[o + i * d_s + k] + p.att_b_c[k]);
    steps.O.set(HT.subarray(o, o + N * d_s), t * N * d_s); // o_t = s~_t
  };

  LuongOrder.prototype.stepBackward = function (p, t, steps, grad, scorer, source, dSource) {
    var N = steps.N,
      d_s = this.d_s,
      d_h = this.d_h,
      ld = d_h + d_s,
      HT = steps.HT,
      i;
    var DPRE = buf("b_DPRE", steps.U * N * d_s),
      dHn = buf("b_dhn", N * d_s),
      dPrev = buf("b_dsp", N * d_s),
      at = t * N * d_s;
    for (i = 0; i < N * d_s; i++) {
      var ht = HT[at + N * d_s + i];
      DPRE[at + i] = (grad.dO[at + i] + grad.dHT[i]) * (1 - ht * ht); // through the tanh of s~_t
    }
    var WcT = transposed(grad, p, "att_W_c", d_s, ld); // (d_h + d_s) x d_s: [W_cc^T; W_cs^T]
    gemm(N, d_h, d_s, DPRE, at, d_s, WcT, 0, d_s, grad.G, t * N * d_h, d_h, false); // g_c = W_cc^T dpre
    gemm(N, d_s, d_s, DPRE, at, d_s, WcT, d_h * d_s, d_s, dHn, 0, d_s, false); // W_cs^T dpre
    scorer.readBackward(p, t, steps, source, dSource, grad, dHn, 0); // read with s_t: + dL/dq
    for (i = 0; i < N * d_s; i++) dHn[i] += grad.dS[i]; // + from step t + 1's update: dL/ds_t
    var Ut = transposed(grad, p, "dec_U", 3 * d_s, d_s);
    lab.gru.stepBackward(N, d_s, dHn, 0, steps.cache, at, steps.S, at, Ut, grad.DXP, t * N * 3 * d_s, dPrev, 0);
    var Wt = transposed(grad, p, "dec_W", 3 * d_s, this.d_e + d_s); // rows d_e.. of W^T: W_f^T
    gemm(N, d_s, 3 * d_s, grad.DXP, t * N * 3 * d_s, 3 * d_s, Wt, this.d_e * 3 * d_s, 3 * d_s, grad.dHT, 0, d_s, false); // to s~_{t-1}
    grad.dS.set(dPrev.subarray(0, N * d_s));
  };

  // dW_c = sum_t dpre_t [c_t; s_t]^T, db_c = sum_t dpre_t, over all steps at once.
  LuongOrder.prototype.backward = function (p, steps, grad, g) {
    var N = steps.N,
      UN = steps.U * N,
      d_s = this.d_s,
      d_h = this.d_h,
      ld = d_h + d_s;
    var DPRE = buf("b_DPRE", UN * d_s);
    var DT = transpose(DPRE, 0, d_s, UN, d_s, buf("b_DPRET", d_s * UN)),
      CT = transpose(steps.C, 0, d_h, UN, d_h, buf("b_CT", d_h * UN)),
      ST = transpose(steps.S, N * d_s, d_s, UN, d_s, buf("b_ST", d_s * UN));
    gemm(d_s, d_h, UN, DT, 0, UN, CT, 0, UN, g.att_W_c, 0, ld, true);
    gemm(d_s, d_s, UN, DT, 0, UN, ST, 0, UN, g.att_W_c, d_h, ld, true);
    K.colsum(DPRE, 0, d_s, UN, d_s, g.att_b_c);
  };

  // What was fed beside the embedding at every step: s~_{t-1}, (U N, d_s) time-major.
  LuongOrder.prototype.feeds = function (steps) {
    return steps.HT;
  };

  lab.orders = {
    BahdanauOrder: BahdanauOrder,
    LuongOrder: LuongOrder,
    ORDERS: { bahdanau: BahdanauOrder, luong: LuongOrder }, // ModelConfig.order -> part
  };
}

if (typeof module === "object" && module.exports) module.exports = aeLabOrders;
