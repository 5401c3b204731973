// lab/scorers.js: the score parts of the decoder, the twins of src/attention_core/models/scorers.py (same
// classes, same methods, in the same order):
//   e_tj = score(s, h_j);  alpha_t = softmax_j(e_tj),  c_t = sum_j alpha_tj h_j      the read, shared by every score
//   additive  e_tj = v^T tanh(W_s s + W_h h_j + b)     AdditiveScore (Bahdanau's)
//   general   e_tj = s^T W_a h_j                       GeneralScore (Luong's)
//   none      c_t = m = [->h_T; <-h_1] at every step   FixedSummary (the baseline)
// Which state s reads (s_{t-1} or s_t) is the order's business (orders.js): the query of step t is the row block
// of steps.S at (t + steps.shift) N d_s. A score's state-free part, the keys k_j, is made once per sentence.
// Its backward has a per-step half (scoresBackward: dL/ds, and dL/dk_j added up in dSource.K) and a half summed
// over all steps after the time loop (sumsBackward: the parameters and dL/dH).
//
// What the decoder keeps of its steps (`steps`, made by seq2seq.js; time-major arrays): S (U + 1, N, d_s) the
// states, E and A (U, N, T) the scores and weights (null without a score), C (U, N, d_h) the contexts, ACT the
// score's activations (U, N, T, d_a) when a backward pass follows (else null). The backward pass's `grad`: G
// (U, N, d_h) dL/dc_t, DE (U, N, T) dL/de_tj, and `T`, the transposed parameters it made (made once per pass).
// A source is {N, T, H (N, T, d_h), K (N, T, keyWidth) or null, m (N, d_h)}; dSource the same shapes, zeros.
// (The additive score's K holds more after the keys, what its scores read: see AdditiveScore.prototype.keys.)
// A part of the laboratory's mathematics: ../ae-lab-math.js puts the parts together.
function aeLabScorers(lab) {
  "use strict";
  var K = lab.kernels,
    buf = K.buf,
    gemm = K.gemm,
    tanh = K.tanh,
    transpose = K.transpose;

  // A parameter's transpose (rows x cols -> cols x rows), made once per backward pass and kept in grad.T.
  function transposed(grad, p, name, rows, cols) {
    if (!grad.T[name]) grad.T[name] = transpose(p[name], 0, cols, rows, cols, buf("T_" + name, rows * cols));
    return grad.T[name];
  }

  // scorers.AttentionScore: a score and the soft read it drives; a subclass defines init, keys, scores,
  // scoresBackward and sumsBackward, and keyWidth and tapeWidth (the widths of its keys and activations).
  function AttentionScore(cfg) {
    this.d_s = cfg.d_dec;
    this.d_h = 2 * cfg.d_enc;
    this.d_a = cfg.d_att;
  }
  AttentionScore.prototype.weighted = true; // it has weights alpha_t

  // Step t's alpha_t = softmax_j(e_tj) and c_t = sum_j alpha_tj h_j, for the step's query states.
  AttentionScore.prototype.read = function (p, t, steps, source) {
    var N = steps.N,
      T = steps.T,
      d_h = this.d_h,
      H = source.H,
      A = steps.A,
      C = steps.C,
      i,
      j,
      k;
    this.scores(p, t, steps, source); // e_tj into steps.E
    for (i = 0; i < N; i++) {
      var row = (t * N + i) * T,
        c = (t * N + i) * d_h;
      K.softmaxInto(steps.E, row, T, A, row); // alpha_t
      for (k = 0; k < d_h; k++) C[c + k] = 0;
      for (j = 0; j < T; j++) {
        var w = A[row + j],
          hb = (i * T + j) * d_h;
        for (k = 0; k < d_h; k++) C[c + k] += w * H[hb + k]; // c_t = sum_j alpha_tj h_j
      }
    }
  };

  // One step back from g_c = dL/dc_t (grad.G at t): dL/de_tj = alpha_tj g_c^T (h_j - c_t) into grad.DE, then
  // through the score, which adds dL/ds into dS (N x d_s at dso) and this step's dL/dk_j into dSource.K.
  AttentionScore.prototype.readBackward = function (p, t, steps, source, dSource, grad, dS, dso) {
    var N = steps.N,
      T = steps.T,
      d_h = this.d_h,
      H = source.H;
    for (var i = 0; i < N; i++) {
      var row = (t * N + i) * T,
        c = (t * N + i) * d_h;
      for (var j = 0; j < T; j++) {
        var hb = (i * T + j) * d_h,
          s = 0;
        for (var k = 0; k < d_h; k++) s += grad.G[c + k] * (H[hb + k] - steps.C[c + k]);
        grad.DE[row + j] = steps.A[row + j] * s;
      }
    }
    this.scoresBackward(p, t, steps, source, dSource, grad, dS, dso);
  };

  // After the time loop: dL/dH through c_t = sum_j alpha_tj h_j, all steps at once, then the score's sums.
  AttentionScore.prototype.backward = function (p, steps, source, dSource, grad, g) {
    var N = steps.N,
      T = steps.T,
      U = steps.U,
      d_h = this.d_h,
      dH = dSource.H;
    for (var t = 0; t < U; t++) {
      for (var i = 0; i < N; i++) {
        var row = (t * N + i) * T,
          c = (t * N + i) * d_h;
        for (var j = 0; j < T; j++) {
          var w = steps.A[row + j],
            hb = (i * T + j) * d_h;
          for (var k = 0; k < d_h; k++) dH[hb + k] += w * grad.G[c + k];
        }
      }
    }
    this.sumsBackward(p, steps, source, dSource, grad, g);
  };

  var EXP_LIMIT = 170; // |q|, |k| <= 170: exp(2 q) exp(2 k) stays between about 1e-295 and 1e295

  // scorers.AdditiveScore: e_tj = v^T tanh(q_t + k_j), keys k_j = W_h h_j + b once per sentence, query q_t = W_s s.
  function AdditiveScore(cfg) {
    AttentionScore.call(this, cfg);
    this.keyWidth = this.d_a;
    this.tapeWidth = this.d_a; // the activations a_tj of every step, for the backward pass
  }
  AdditiveScore.prototype = Object.create(AttentionScore.prototype);
  AdditiveScore.prototype.name = "additive";

  AdditiveScore.prototype.init = function (draw) {
    draw("att_W_s", [this.d_a, this.d_s], 1 / Math.sqrt(this.d_s));
    draw("att_W_h", [this.d_a, this.d_h], 1 / Math.sqrt(this.d_h));
    draw("att_v", [this.d_a], 1 / Math.sqrt(this.d_a));
    draw("att_b", [this.d_a], 0);
  };

  // The keys k_j (N, T, d_a), followed in the same array by exp(2 k_j) (N, T, d_a), which scores reads, and by
  // one number: 1 if some |k_j| is above EXP_LIMIT (then scores computes tanh(q + k) itself), else 0.
  AdditiveScore.prototype.keys = function (p, H, N, T, tag) {
    var d_a = this.d_a,
      NT = N * T,
      Kk = buf(tag + "K", 2 * NT * d_a + 1),
      big = 0;
    gemm(NT, d_a, this.d_h, H, 0, this.d_h, p.att_W_h, 0, this.d_h, Kk, 0, d_a, false); // W_h h_j
    for (var i = 0; i < NT; i++) {
      for (var k = 0; k < d_a; k++) {
        var at = i * d_a + k,
          x = (Kk[at] += p.att_b[k]); // + b
        if (x > EXP_LIMIT || x < -EXP_LIMIT) big = 1;
        Kk[NT * d_a + at] = Math.exp(2 * x);
      }
    }
    Kk[2 * NT * d_a] = big;
    return Kk;
  };

  // e_tj = v^T a_tj with a_tj = tanh(q_t + k_j) = (z - 1) / (z + 1), z = exp(2 q_t) exp(2 k_j): one product and
  // one division per term, the exponentials made once per step (of the queries) and once per sentence (of the
  // keys). z is within a few units in the last place of exp(2 (q_t + k_j)), so a_tj is within about 4e-16 of
  // tanh(q_t + k_j), with no loss of digits whatever the signs. Beyond EXP_LIMIT (never met in practice) the
  // exponentials could overflow: that step computes tanh(q_t + k_j) itself.
  AdditiveScore.prototype.scores = function (p, t, steps, source) {
    var N = steps.N,
      T = steps.T,
      d_a = this.d_a,
      d_s = this.d_s,
      v = p.att_v,
      Kk = source.K,
      eko = N * T * d_a, // where exp(2 k_j) start
      act = steps.ACT ? steps.ACT : buf("att_act", T * d_a), // without a tape, one sentence's a_tj at a time
      E = steps.E,
      big = Kk[2 * N * T * d_a] !== 0,
      n;
    var Q = buf("att_q", N * d_a),
      EQ = buf("att_eq", N * d_a);
    gemm(N, d_a, d_s, steps.S, (t + steps.shift) * N * d_s, d_s, p.att_W_s, 0, d_s, Q, 0, d_a, false); // q = W_s s
    for (n = 0; n < N * d_a; n++) {
      if (Q[n] > EXP_LIMIT || Q[n] < -EXP_LIMIT) big = true;
      EQ[n] = Math.exp(2 * Q[n]);
    }
    for (var i = 0; i < N; i++) {
      var qb = i * d_a,
        ab = steps.ACT ? (t * N + i) * T * d_a : 0;
      for (var j = 0; j < T; j++, ab += d_a) {
        var kb = (i * T + j) * d_a,
          ek = eko + kb,
          sum = 0,
          k,
          a;
        if (big) {
          for (k = 0; k < d_a; k++) {
            a = tanh(Q[qb + k] + Kk[kb + k]);
            act[ab + k] = a;
            sum += v[k] * a;
          }
        } else {
          for (k = 0; k < d_a; k++) {
            var z = EQ[qb + k] * Kk[ek + k];
            a = (z - 1) / (z + 1);
            act[ab + k] = a;
            sum += v[k] * a;
          }
        }
        E[(t * N + i) * T + j] = sum; // e_tj = v^T tanh(W_s s + W_h h_j + b)
      }
    }
  };

  // dz_tj = (dL/de_tj) v (1 - a_tj^2); dL/dq_t = sum_j dz_tj (kept in b_DQ for the sums); dL/ds += W_s^T dq_t;
  // dL/dk_j += dz_tj.
  AdditiveScore.prototype.scoresBackward = function (p, t, steps, source, dSource, grad, dS, dso) {
    var N = steps.N,
      T = steps.T,
      d_a = this.d_a,
      v = p.att_v,
      act = steps.ACT,
      dK = dSource.K;
    var DQ = buf("b_DQ", steps.U * N * d_a);
    for (var i = 0; i < N; i++) {
      var qb = (t * N + i) * d_a,
        k;
      for (k = 0; k < d_a; k++) DQ[qb + k] = 0;
      for (var j = 0; j < T; j++) {
        var dE = grad.DE[(t * N + i) * T + j],
          ab = ((t * N + i) * T + j) * d_a,
          kb = (i * T + j) * d_a;
        for (k = 0; k < d_a; k++) {
          var a = act[ab + k];
          var dz = dE * v[k] * (1 - a * a); // through e = v^T tanh(q + k_j)
          DQ[qb + k] += dz;
          dK[kb + k] += dz;
        }
      }
    }
    var WsT = transposed(grad, p, "att_W_s", d_a, this.d_s);
    gemm(N, this.d_s, d_a, DQ, t * N * d_a, d_a, WsT, 0, d_a, dS, dso, this.d_s, true); // + W_s^T dL/dq_t
  };

  // dW_s = sum_t dq_t s^T, db = sum_t dq_t, dv = sum (dL/de) a, dW_h = sum_j dk_j h_j^T; dL/dh_j += W_h^T dk_j.
  AdditiveScore.prototype.sumsBackward = function (p, steps, source, dSource, grad, g) {
    var N = steps.N,
      T = steps.T,
      UN = steps.U * N,
      d_a = this.d_a,
      d_s = this.d_s,
      d_h = this.d_h,
      NT = N * T;
    var DQ = buf("b_DQ", UN * d_a),
      dK = dSource.K,
      act = steps.ACT;
    var DQT = transpose(DQ, 0, d_a, UN, d_a, buf("b_DQT", d_a * UN)),
      ST = transpose(steps.S, steps.shift * N * d_s, d_s, UN, d_s, buf("b_ST", d_s * UN));
    gemm(d_a, d_s, UN, DQT, 0, UN, ST, 0, UN, g.att_W_s, 0, d_s, true); // dW_s = sum dq s^T
    K.colsum(DQ, 0, d_a, UN, d_a, g.att_b);
    for (var r = 0; r < UN * T; r++) {
      var dE = grad.DE[r];
      for (var k = 0; k < d_a; k++) g.att_v[k] += dE * act[r * d_a + k];
    }
    var dKT = transpose(dK, 0, d_a, NT, d_a, buf("b_dKT", d_a * NT)),
      HT = transpose(source.H, 0, d_h, NT, d_h, buf("b_HT", d_h * NT));
    gemm(d_a, d_h, NT, dKT, 0, NT, HT, 0, NT, g.att_W_h, 0, d_h, true); // dW_h = sum dk_j h_j^T
    var WhT = transposed(grad, p, "att_W_h", d_a, d_h);
    gemm(NT, d_h, d_a, dK, 0, d_a, WhT, 0, d_a, dSource.H, 0, d_h, true); // + W_h^T dk_j
  };

  // scorers.GeneralScore: e_tj = s^T k_j with keys k_j = W_a h_j (N, T, d_s) once per sentence.
  function GeneralScore(cfg) {
    AttentionScore.call(this, cfg);
    this.keyWidth = this.d_s;
    this.tapeWidth = 0; // nothing kept beside e
  }
  GeneralScore.prototype = Object.create(AttentionScore.prototype);
  GeneralScore.prototype.name = "general";

  GeneralScore.prototype.init = function (draw) {
    draw("att_W", [this.d_s, this.d_h], 1 / Math.sqrt(this.d_h)); // W_a
  };

  GeneralScore.prototype.keys = function (p, H, N, T, tag) {
    var Kk = buf(tag + "K", N * T * this.d_s);
    gemm(N * T, this.d_s, this.d_h, H, 0, this.d_h, p.att_W, 0, this.d_h, Kk, 0, this.d_s, false); // k_j = W_a h_j
    return Kk;
  };

  GeneralScore.prototype.scores = function (p, t, steps, source) {
    var N = steps.N,
      T = steps.T,
      d_s = this.d_s,
      S = steps.S,
      so = (t + steps.shift) * N * d_s;
    for (var i = 0; i < N; i++) {
      for (var j = 0; j < T; j++) {
        var kb = (i * T + j) * d_s,
          sum = 0;
        for (var k = 0; k < d_s; k++) sum += S[so + i * d_s + k] * source.K[kb + k];
        steps.E[(t * N + i) * T + j] = sum; // e_tj = s^T k_j
      }
    }
  };

  // dL/ds = sum_j (dL/de_tj) k_j; dL/dk_j += (dL/de_tj) s.
  GeneralScore.prototype.scoresBackward = function (p, t, steps, source, dSource, grad, dS, dso) {
    var N = steps.N,
      T = steps.T,
      d_s = this.d_s,
      S = steps.S,
      so = (t + steps.shift) * N * d_s;
    for (var i = 0; i < N; i++) {
      for (var j = 0; j < T; j++) {
        var dE = grad.DE[(t * N + i) * T + j],
          kb = (i * T + j) * d_s;
        for (var k = 0; k < d_s; k++) {
          dS[dso + i * d_s + k] += dE * source.K[kb + k];
          dSource.K[kb + k] += dE * S[so + i * d_s + k];
        }
      }
    }
  };

  // dW_a = sum_j dk_j h_j^T; dL/dh_j += W_a^T dk_j.
  GeneralScore.prototype.sumsBackward = function (p, steps, source, dSource, grad, g) {
    var NT = steps.N * steps.T,
      d_s = this.d_s,
      d_h = this.d_h;
    var dKT = transpose(dSource.K, 0, d_s, NT, d_s, buf("b_dKT", d_s * NT)),
      HT = transpose(source.H, 0, d_h, NT, d_h, buf("b_HT", d_h * NT));
    gemm(d_s, d_h, NT, dKT, 0, NT, HT, 0, NT, g.att_W, 0, d_h, true);
    var WaT = transposed(grad, p, "att_W", d_s, d_h);
    gemm(NT, d_h, d_s, dSource.K, 0, d_s, WaT, 0, d_s, dSource.H, 0, d_h, true);
  };

  // scorers.FixedSummary: no score; every step reads c_t = m. The same interface as AttentionScore.
  function FixedSummary(cfg) {
    this.d_h = 2 * cfg.d_enc;
    this.keyWidth = 0;
    this.tapeWidth = 0;
  }
  FixedSummary.prototype.name = "none";
  FixedSummary.prototype.weighted = false; // no weights alpha_t
  FixedSummary.prototype.init = function () {};
  FixedSummary.prototype.keys = function () {
    return null;
  };
  FixedSummary.prototype.read = function (p, t, steps, source) {
    var n = steps.N * this.d_h;
    steps.C.set(source.m.subarray(0, n), t * n); // c_t = m, whatever the state
  };
  FixedSummary.prototype.readBackward = function () {}; // c_t = m does not depend on s
  FixedSummary.prototype.backward = function (p, steps, source, dSource, grad) {
    var n = steps.N * this.d_h;
    for (var t = 0; t < steps.U; t++) for (var i = 0; i < n; i++) dSource.m[i] += grad.G[t * n + i]; // dL/dm = sum_t g_c
  };

  lab.scorers = {
    transposed: transposed,
    AttentionScore: AttentionScore,
    AdditiveScore: AdditiveScore,
    GeneralScore: GeneralScore,
    FixedSummary: FixedSummary,
    SCORES: { additive: AdditiveScore, general: GeneralScore }, // ModelConfig.score -> part (attention = true)
  };
}

if (typeof module === "object" && module.exports) module.exports = aeLabScorers;
