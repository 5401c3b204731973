// lab/gru.js: the gated recurrent unit, the twin of src/attention_core/models/gru.py (same gates, same order):
//   z = sigmoid(W_z x + U_z h + b_z),  r = sigmoid(W_r x + U_r h + b_r),  n = tanh(W_n x + U_n (r h) + b_n)
//   h' = (1 - z) h + z n
// W (3d, d_in), U (3d, d), b (3d,), rows in the order z, r, n. The input part xp = W x + b is the caller's (it does
// not depend on the state). Rows of a batch are N states of width d; arrays of states and gates are time-major
// (the rows of step t start at t N d), so one step's rows are contiguous.
// A part of the laboratory's mathematics: ../ae-lab-math.js puts the parts together.
function aeLabGru(lab) {
  "use strict";
  var K = lab.kernels,
    buf = K.buf,
    gemm = K.gemm,
    tanh = K.tanh;

  // gru.sigmoid: 1 / (1 + exp(-x)) written with tanh, so it never overflows.
  function sigmoid(x) {
    return 0.5 * (1 + tanh(0.5 * x));
  }

  // gru.GRUCache: what the backward pass of the steps needs (z, r, r h, n of M = steps x N rows), pooled by tag.
  function cache(tag, M, d) {
    return { z: buf(tag + "z", M * d), r: buf(tag + "r", M * d), rh: buf(tag + "rh", M * d), n: buf(tag + "n", M * d) };
  }

  // gru.gru_step: from XP (N x 3d, at xo) = W x + b and the states (rows of Hs at ho), the new states into Out at
  // oo; the gates kept in c (a cache) at co when c is given.
  function step(N, d, XP, xo, Hs, ho, U, Out, oo, c, co) {
    var zr = buf("gru_zr", N * 2 * d),
      rh = buf("gru_rh", N * d),
      un = buf("gru_un", N * d);
    var i, k;
    gemm(N, 2 * d, d, Hs, ho, d, U, 0, d, zr, 0, 2 * d, false); // h U_zr^T
    for (i = 0; i < N; i++) {
      for (k = 0; k < 2 * d; k++) zr[i * 2 * d + k] = sigmoid(XP[xo + i * 3 * d + k] + zr[i * 2 * d + k]); // z, r
      for (k = 0; k < d; k++) rh[i * d + k] = zr[i * 2 * d + d + k] * Hs[ho + i * d + k];
    }
    gemm(N, d, d, rh, 0, d, U, 2 * d * d, d, un, 0, d, false); // (r h) U_n^T
    for (i = 0; i < N; i++) {
      for (k = 0; k < d; k++) {
        var z = zr[i * 2 * d + k],
          n = tanh(XP[xo + i * 3 * d + 2 * d + k] + un[i * d + k]),
          h = Hs[ho + i * d + k];
        if (c) {
          var at = co + i * d + k;
          c.z[at] = z;
          c.r[at] = zr[i * 2 * d + d + k];
          c.rh[at] = rh[i * d + k];
          c.n[at] = n;
        }
        Out[oo + i * d + k] = (1 - z) * h + z * n; // h' = (1 - z) h + z n
      }
    }
  }

  // gru.gru_step_backward: dL/dh' (rows of dHn at go) back through one cached step. Writes DXP (N x 3d at xo) =
  // [dz_pre, dr_pre, dn_pre] and dL/dh (rows of dPrev at po). Ut is U^T (d x 3d). The step's share of dL/dU is
  // not formed here: paramGrads sums it over every step at once (the same sum, one product).
  function stepBackward(N, d, dHn, go, c, co, Hs, ho, Ut, DXP, xo, dPrev, po) {
    var drh = buf("gru_drh", N * d);
    var i, k, at, g, z, n, r;
    for (i = 0; i < N; i++) {
      for (k = 0; k < d; k++) {
        at = co + i * d + k;
        g = dHn[go + i * d + k];
        z = c.z[at];
        n = c.n[at];
        DXP[xo + i * 3 * d + 2 * d + k] = g * z * (1 - n * n); // dn_pre: through h' = ... + z n, then tanh
        DXP[xo + i * 3 * d + k] = g * (n - Hs[ho + i * d + k]) * z * (1 - z); // dz_pre
      }
    }
    gemm(N, d, d, DXP, xo + 2 * d, 3 * d, Ut, 2 * d, 3 * d, drh, 0, d, false); // d(r h) = dn_pre U_n
    for (i = 0; i < N; i++) {
      for (k = 0; k < d; k++) {
        at = co + i * d + k;
        r = c.r[at];
        DXP[xo + i * 3 * d + d + k] = drh[i * d + k] * Hs[ho + i * d + k] * r * (1 - r); // dr_pre
        dPrev[po + i * d + k] = dHn[go + i * d + k] * (1 - c.z[at]) + drh[i * d + k] * r;
      }
    }
    gemm(N, d, 2 * d, DXP, xo, 3 * d, Ut, 0, 3 * d, dPrev, po, d, true); // + [dz_pre, dr_pre] U_zr
  }

  // dL/dU of all M step rows at once (the sum of gru_step_backward's dU over the steps):
  // dU_zr += [dz, dr]^T h_prev, dU_n += dn^T (r h).
  function paramGrads(M, d, DXP, Hprev, RH, gU) {
    var dT = K.transpose(DXP, 0, 3 * d, M, 3 * d, buf("gp_dxp", 3 * d * M));
    var hT = K.transpose(Hprev, 0, d, M, d, buf("gp_h", d * M));
    var rT = K.transpose(RH, 0, d, M, d, buf("gp_rh", d * M));
    gemm(2 * d, d, M, dT, 0, M, hT, 0, M, gU, 0, d, true);
    gemm(d, d, M, dT, 2 * d * M, M, rT, 0, M, gU, 2 * d * d, d, true);
  }

  // gru.init_gru: W (3d, d_in) and U (3d, d) normal / sqrt(fan_in), b zero; draw(name, shape, scale) draws them.
  function init(draw, prefix, d_in, d) {
    draw(prefix + "W", [3 * d, d_in], 1 / Math.sqrt(d_in));
    draw(prefix + "U", [3 * d, d], 1 / Math.sqrt(d));
    draw(prefix + "b", [3 * d], 0);
  }

  lab.gru = { sigmoid: sigmoid, cache: cache, step: step, stepBackward: stepBackward, paramGrads: paramGrads, init: init };
}

if (typeof module === "object" && module.exports) module.exports = aeLabGru;
