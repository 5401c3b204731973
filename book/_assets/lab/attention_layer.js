// lab/attention_layer.js: one layer of an encoder without recurrence, the twin of
// src/attention_core/models/attention_layer.py (same functions and class, same order). Every position i reads
// every position j with the scaled dot product, adds what it read to what it held, then passes through a small
// layer of its own:
//   q_i = W_q z_i,  k_j = W_k z_j,  v_j = W_v z_j        (tied: v_j = k_j, no W_v)
//   e_ij = q_i^T k_j / sqrt(d),  alpha_ij = softmax_j(e_ij)          (causal: only j <= i is read)
//   z'_i = z_i + sum_j alpha_ij v_j                                   the read, with a residual connection
//   z''_i = z'_i + W_2 relu(W_1 z'_i + b_1) + b_2                     the position-wise layer
// Arrays are Float64Array, row-major: a batch of N sentences of T positions (N, T, d); the weights (N, T, T), row i
// the position that reads. Each forward returns its output and a cache (working arrays named by tag and the layer's
// prefix, so that the layers, and the training and decoding passes, never share one); its backward reads the cache.
// A part of the laboratory's mathematics: ../ae-lab-math.js puts the parts together.
function aeLabAttentionLayer(lab) {
  "use strict";
  var K = lab.kernels,
    buf = K.buf,
    gemm = K.gemm,
    transpose = K.transpose;

  // attention_layer.read_forward: every position's read y_i = sum_j alpha_ij v_j (N, T, d); W_v null ties the
  // values to the keys. Returns {Y, cache: {Z, Q, K, V, A, N, T}}.
  function readForward(Z, N, T, d, W_q, W_k, W_v, causal, tag) {
    var NT = N * T,
      Q = buf(tag + "Q", NT * d),
      Kk = buf(tag + "K", NT * d),
      V = W_v ? buf(tag + "V", NT * d) : Kk,
      A = buf(tag + "A", N * T * T),
      Y = buf(tag + "Y", NT * d),
      Vt = buf(tag + "Vt", d * T),
      scale = 1 / Math.sqrt(d),
      i,
      r,
      j;
    gemm(NT, d, d, Z, 0, d, W_q, 0, d, Q, 0, d, false); // (N T, d) x (d, d) -> (N T, d)
    gemm(NT, d, d, Z, 0, d, W_k, 0, d, Kk, 0, d, false);
    if (W_v) gemm(NT, d, d, Z, 0, d, W_v, 0, d, V, 0, d, false);
    for (i = 0; i < N; i++) {
      var o = i * T * d,
        a = i * T * T;
      gemm(T, T, d, Q, o, d, Kk, o, d, A, a, T, false); // (T, d) x (d, T) -> (T, T): q_i^T k_j
      for (r = 0; r < T; r++) {
        for (j = 0; j < T; j++) A[a + r * T + j] = causal && j > r ? -Infinity : A[a + r * T + j] * scale; // e_ij
        K.softmaxInto(A, a + r * T, T, A, a + r * T); // alpha_i, each row sums to 1
      }
      transpose(V, o, d, T, d, Vt);
      gemm(T, d, T, A, a, T, Vt, 0, T, Y, o, d, false); // (T, T) x (T, d) -> (T, d)
    }
    return { Y: Y, cache: { Z: Z, Q: Q, K: Kk, V: V, A: A, N: N, T: T } };
  }

  // attention_layer.read_backward: dL/dZ (N, T, d) into dZ (replaced), and the projections' gradients added into
  // the arrays gW ({W_q, W_k, W_v}; W_v's only when untied), from dL/dY.
  function readBackward(dY, c, d, W_q, W_k, W_v, gW, dZ, tag) {
    var N = c.N,
      T = c.T,
      NT = N * T,
      scale = 1 / Math.sqrt(d),
      dA = buf(tag + "dA", T * T),
      t1 = buf(tag + "t1", T * T),
      t2 = buf(tag + "t2", d * T),
      dQ = buf(tag + "dQ", NT * d),
      dK = buf(tag + "dK", NT * d),
      dV = buf(tag + "dV", NT * d),
      i,
      r,
      j,
      k;
    for (i = 0; i < N; i++) {
      var o = i * T * d,
        a = i * T * T;
      gemm(T, T, d, dY, o, d, c.V, o, d, dA, 0, T, false); // dL/dalpha = dY V^T: (T, T)
      transpose(c.A, a, T, T, T, t1);
      transpose(dY, o, d, T, d, t2);
      gemm(T, d, T, t1, 0, T, t2, 0, T, dV, o, d, false); // dL/dV = A^T dY: (T, d)
      for (r = 0; r < T; r++) {
        var row = a + r * T,
          s = 0;
        for (j = 0; j < T; j++) s += dA[r * T + j] * c.A[row + j];
        for (j = 0; j < T; j++) dA[r * T + j] = (c.A[row + j] * (dA[r * T + j] - s)) * scale; // dL/de: softmax's Jacobian, the scale
      }
      transpose(c.K, o, d, T, d, t2);
      gemm(T, d, T, dA, 0, T, t2, 0, T, dQ, o, d, false); // dL/dQ = dE K: (T, d)
      transpose(dA, 0, T, T, T, t1);
      transpose(c.Q, o, d, T, d, t2);
      gemm(T, d, T, t1, 0, T, t2, 0, T, dK, o, d, false); // dL/dK = dE^T Q: (T, d)
    }
    if (!W_v) for (k = 0; k < NT * d; k++) dK[k] += dV[k]; // tied: the keys were also read back
    var Zt = transpose(c.Z, 0, d, NT, d, buf(tag + "Zt", d * NT)),
      Gt = buf(tag + "Gt", d * NT),
      Wt = buf(tag + "Wt", d * d);
    [
      ["W_q", dQ, W_q],
      ["W_k", dK, W_k],
      ["W_v", dV, W_v],
    ].forEach(function (x, n) {
      if (!x[2]) return;
      transpose(x[1], 0, d, NT, d, Gt);
      gemm(d, d, NT, Gt, 0, NT, Zt, 0, NT, gW[x[0]], 0, d, true); // dL/dW = dX^T Z, summed over N T rows: (d, d)
      transpose(x[2], 0, d, d, d, Wt);
      gemm(NT, d, d, x[1], 0, d, Wt, 0, d, dZ, 0, d, n > 0); // dL/dZ = dQ W_q + dK W_k (+ dV W_v)
    });
  }

  // attention_layer.position_wise_forward: W_2 relu(W_1 z_i + b_1) + b_2 at every position (N T, d).
  // Returns {F, cache: {Z, pre, R, rows}}.
  function positionWiseForward(Z, rows, d, f, W_1, b_1, W_2, b_2, tag) {
    var pre = buf(tag + "pre", rows * f),
      R = buf(tag + "R", rows * f),
      F = buf(tag + "F", rows * d),
      i,
      k;
    gemm(rows, f, d, Z, 0, d, W_1, 0, d, pre, 0, f, false); // (N T, d) x (d, d_ff) -> (N T, d_ff)
    for (i = 0; i < rows; i++) {
      for (k = 0; k < f; k++) {
        var x = (pre[i * f + k] += b_1[k]);
        R[i * f + k] = x > 0 ? x : 0; // relu
      }
    }
    gemm(rows, d, f, R, 0, f, W_2, 0, f, F, 0, d, false); // (N T, d_ff) x (d_ff, d) -> (N T, d)
    for (i = 0; i < rows; i++) for (k = 0; k < d; k++) F[i * d + k] += b_2[k];
    return { F: F, cache: { Z: Z, pre: pre, R: R, rows: rows } };
  }

  // attention_layer.position_wise_backward: dL/dZ into dZ (replaced) and the layer's gradients added into gF
  // ({W_1, b_1, W_2, b_2}), from dL/dY (N T, d).
  function positionWiseBackward(dY, c, d, f, W_1, W_2, gF, dZ, tag) {
    var rows = c.rows,
      dR = buf(tag + "dR", rows * f),
      i,
      k;
    var W2t = transpose(W_2, 0, f, d, f, buf(tag + "W2t", f * d));
    gemm(rows, f, d, dY, 0, d, W2t, 0, d, dR, 0, f, false); // dL/dR = dY W_2: (N T, d_ff)
    for (i = 0; i < rows * f; i++) if (!(c.pre[i] > 0)) dR[i] = 0; // relu passes the gradient where it passed the input
    var dYt = transpose(dY, 0, d, rows, d, buf(tag + "dYt", d * rows)),
      Rt = transpose(c.R, 0, f, rows, f, buf(tag + "Rt", f * rows));
    gemm(d, f, rows, dYt, 0, rows, Rt, 0, rows, gF.W_2, 0, f, true); // (d, d_ff)
    K.colsum(dY, 0, d, rows, d, gF.b_2);
    var dRt = transpose(dR, 0, f, rows, f, buf(tag + "dRt", f * rows)),
      Zt = transpose(c.Z, 0, d, rows, d, buf(tag + "Zft", d * rows));
    gemm(f, d, rows, dRt, 0, rows, Zt, 0, rows, gF.W_1, 0, d, true); // (d_ff, d)
    K.colsum(dR, 0, f, rows, f, gF.b_1);
    var W1t = transpose(W_1, 0, d, f, d, buf(tag + "W1t", d * f));
    gemm(rows, d, f, dR, 0, f, W1t, 0, f, dZ, 0, d, false); // dL/dZ = dR W_1: (N T, d)
  }

  // attention_layer.SelfAttentionLayer: layer `index` (1, 2, ...): the read with its residual, then the
  // position-wise layer with its residual. tied: the values are the keys (no W_v); causal: position i reads j <= i.
  function SelfAttentionLayer(index, d, d_ff, tied, causal) {
    this.index = index;
    this.d = d;
    this.d_ff = d_ff;
    this.tied = !!tied;
    this.causal = !!causal;
    this.prefix = "sa" + index + "_";
    var pre = this.prefix;
    this.params = (tied ? ["W_q", "W_k"] : ["W_q", "W_k", "W_v"]).concat(["W_1", "b_1", "W_2", "b_2"]).map(function (n) {
      return pre + n;
    });
  }

  // Projections N(0, 1) / sqrt(d), W_1 N(0, 1) / sqrt(d), W_2 N(0, 1) * 0.5 / sqrt(d_ff) (a small first update),
  // biases zero: draw(name, shape, scale) draws each, in the package's order.
  SelfAttentionLayer.prototype.init = function (draw) {
    var d = this.d,
      f = this.d_ff,
      pre = this.prefix;
    draw(pre + "W_q", [d, d], 1 / Math.sqrt(d));
    draw(pre + "W_k", [d, d], 1 / Math.sqrt(d));
    if (!this.tied) draw(pre + "W_v", [d, d], 1 / Math.sqrt(d));
    draw(pre + "W_1", [f, d], 1 / Math.sqrt(d));
    draw(pre + "b_1", [f], 0);
    draw(pre + "W_2", [d, f], 0.5 / Math.sqrt(f));
    draw(pre + "b_2", [d], 0);
  };

  // z'' (N, T, d), the weights alpha (N, T, T) and the cache, from the inputs Z (N, T, d): {out, A, cache}.
  SelfAttentionLayer.prototype.forward = function (p, Z, N, T, tag) {
    var pre = this.prefix,
      d = this.d,
      n = N * T * d,
      at = tag + pre,
      k;
    var read = readForward(Z, N, T, d, p[pre + "W_q"], p[pre + "W_k"], this.tied ? null : p[pre + "W_v"], this.causal, at);
    var Z1 = buf(at + "Z1", n);
    for (k = 0; k < n; k++) Z1[k] = Z[k] + read.Y[k]; // the residual connection around the read
    var feed = positionWiseForward(Z1, N * T, d, this.d_ff, p[pre + "W_1"], p[pre + "b_1"], p[pre + "W_2"], p[pre + "b_2"], at);
    var out = buf(at + "out", n);
    for (k = 0; k < n; k++) out[k] = Z1[k] + feed.F[k]; // and around the position-wise layer
    return { out: out, A: read.cache.A, cache: { read: read.cache, feed: feed.cache } };
  };

  // dL/dZ (N, T, d), a working array of this layer, from dL/dz'' (dOut); the layer's gradients added into g.
  SelfAttentionLayer.prototype.backward = function (p, dOut, cache, g, tag) {
    var pre = this.prefix,
      d = this.d,
      at = tag + pre,
      n = cache.read.N * cache.read.T * d,
      k;
    var dZ1 = buf(at + "dZ1", n);
    var gF = { W_1: g[pre + "W_1"], b_1: g[pre + "b_1"], W_2: g[pre + "W_2"], b_2: g[pre + "b_2"] };
    positionWiseBackward(dOut, cache.feed, d, this.d_ff, p[pre + "W_1"], p[pre + "W_2"], gF, dZ1, at);
    for (k = 0; k < n; k++) dZ1[k] += dOut[k]; // the residual
    var dZ = buf(at + "dZ", n);
    var gW = { W_q: g[pre + "W_q"], W_k: g[pre + "W_k"], W_v: g[pre + "W_v"] };
    readBackward(dZ1, cache.read, d, p[pre + "W_q"], p[pre + "W_k"], this.tied ? null : p[pre + "W_v"], gW, dZ, at);
    for (k = 0; k < n; k++) dZ[k] += dZ1[k];
    return dZ;
  };

  lab.attention_layer = {
    readForward: readForward,
    readBackward: readBackward,
    positionWiseForward: positionWiseForward,
    positionWiseBackward: positionWiseBackward,
    SelfAttentionLayer: SelfAttentionLayer,
  };
}

if (typeof module === "object" && module.exports) module.exports = aeLabAttentionLayer;
