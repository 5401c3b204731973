// lab/encoder.js: the bidirectional GRU encoder, the twin of src/attention_core/models/encoder.py:
//   ->h_j = GRU_fw(->h_{j-1}, e_src(x_j)),  <-h_j = GRU_bw(<-h_{j+1}, e_src(x_j)),  h_j = [->h_j; <-h_j]
// Annotations H (N, T, 2 d_enc) are sentence-major. A direction's states are kept in the order it reads:
// HS[0] = 0 and HS[s + 1] after its s-th position (time-major, for the GRU's backward pass).
// A part of the laboratory's mathematics: ../ae-lab-math.js puts the parts together.
function aeLabEncoder(lab) {
  "use strict";
  var K = lab.kernels,
    buf = K.buf,
    zeros = K.zeros,
    gemm = K.gemm,
    transpose = K.transpose,
    colsum = K.colsum;

  // Parameters that never change (the committed model in the page): their input tables are made once.
  var frozen = typeof WeakMap === "function" ? new WeakMap() : null;
  function freeze(p) {
    if (frozen) frozen.set(p, {});
    return p;
  }

  // W e(v) + b for every word v of a vocabulary (V x rows): one table instead of a product per position (the
  // input part of a GRU whose input starts with an embedding; ld is W's row length). For frozen parameters,
  // made once and kept under `name`.
  function inputTable(p, emb, W, b, V, d_e, rows, ld, name) {
    var kept = frozen && frozen.get(p);
    if (kept && kept[name]) return kept[name];
    var table = kept ? new Float64Array(V * rows) : buf("tab_" + name, V * rows);
    gemm(V, rows, d_e, emb, 0, d_e, W, 0, ld, table, 0, rows, false);
    for (var v = 0; v < V; v++) for (var q = 0; q < rows; q++) table[v * rows + q] += b[q];
    if (kept) kept[name] = table;
    return table;
  }

  // encoder.init_encoder: the source embeddings (normal * 0.5) and the two GRU directions.
  function init(draw, cfg) {
    draw("src_emb", [cfg.src_vocab, cfg.d_emb], 0.5);
    lab.gru.init(draw, "enc_fw_", cfg.d_emb, cfg.d_enc);
    lab.gru.init(draw, "enc_bw_", cfg.d_emb, cfg.d_enc);
  }

  // encoder.encode: annotations H (N, T, 2 d_enc) of sentences src (N, T). With keep, the gates are kept for
  // encodeBackward. tag names the working arrays (one set per use: training, decoding).
  function encode(p, cfg, src, N, T, keep, tag) {
    var d_e = cfg.d_emb,
      d = cfg.d_enc,
      d_h = 2 * d,
      V = cfg.src_vocab;
    var H = buf(tag + "H", N * T * d_h);
    var XP = buf("enc_xp", N * 3 * d);
    ["fw", "bw"].forEach(function (dir, half) {
      var W = p["enc_" + dir + "_W"],
        U = p["enc_" + dir + "_U"],
        b = p["enc_" + dir + "_b"];
      var EW = inputTable(p, p.src_emb, W, b, V, d_e, 3 * d, d_e, "enc_" + dir); // W e_src(v) + b
      var HS = zeros(tag + "HS" + dir, (T + 1) * N * d);
      var c = keep ? lab.gru.cache(tag + dir, T * N, d) : null;
      for (var s = 0; s < T; s++) {
        var j = half === 0 ? s : T - 1 - s; // the backward direction reads T, ..., 1
        for (var i = 0; i < N; i++) XP.set(EW.subarray(src[i * T + j] * 3 * d, (src[i * T + j] + 1) * 3 * d), i * 3 * d);
        lab.gru.step(N, d, XP, 0, HS, s * N * d, U, HS, (s + 1) * N * d, c, s * N * d);
        for (i = 0; i < N; i++) H.set(HS.subarray((s + 1) * N * d + i * d, (s + 1) * N * d + (i + 1) * d), (i * T + j) * d_h + half * d);
      }
    });
    return H;
  }

  // encoder.encode_backward: every encoder parameter's gradient, added into g, from dL/dH (N, T, 2 d_enc); after
  // encode(..., keep = true) with the same tag. The embedding's gradient (embedding_backward) gathers the
  // rows of each source word, then takes one product per word.
  function encodeBackward(p, cfg, src, N, T, dH, g, tag) {
    var d_e = cfg.d_emb,
      d = cfg.d_enc,
      d_h = 2 * d,
      V = cfg.src_vocab;
    ["fw", "bw"].forEach(function (dir, half) {
      var W = p["enc_" + dir + "_W"],
        HS = buf(tag + "HS" + dir, 0),
        c = lab.gru.cache(tag + dir, T * N, d);
      var Ut = transpose(p["enc_" + dir + "_U"], 0, d, 3 * d, d, buf("enc_ut", 3 * d * d));
      var DXP = buf("enc_dxp", T * N * 3 * d),
        dh = zeros("enc_dh", N * d),
        dHn = buf("enc_dhn", N * d);
      for (var s = T - 1; s >= 0; s--) {
        var j = half === 0 ? s : T - 1 - s;
        for (var i = 0; i < N; i++) for (var k = 0; k < d; k++) dHn[i * d + k] = dh[i * d + k] + dH[(i * T + j) * d_h + half * d + k];
        lab.gru.stepBackward(N, d, dHn, 0, c, s * N * d, HS, s * N * d, Ut, DXP, s * N * 3 * d, dh, 0);
      }
      lab.gru.paramGrads(T * N, d, DXP, HS, c.rh, g["enc_" + dir + "_U"]);
      var AGG = zeros("enc_agg", V * 3 * d); // dL/d(W e_src(v) + b), summed by source word v
      for (s = 0; s < T; s++) {
        j = half === 0 ? s : T - 1 - s;
        for (i = 0; i < N; i++) {
          var row = src[i * T + j] * 3 * d,
            from = (s * N + i) * 3 * d;
          for (k = 0; k < 3 * d; k++) AGG[row + k] += DXP[from + k];
        }
      }
      colsum(AGG, 0, 3 * d, V, 3 * d, g["enc_" + dir + "_b"]);
      var aggT = transpose(AGG, 0, 3 * d, V, 3 * d, buf("enc_aggT", 3 * d * V));
      var embT = transpose(p.src_emb, 0, d_e, V, d_e, buf("enc_embT", d_e * V));
      gemm(3 * d, d_e, V, aggT, 0, V, embT, 0, V, g["enc_" + dir + "_W"], 0, d_e, true); // dW = sum dXp e_src^T
      var Wt = transpose(W, 0, d_e, 3 * d, d_e, buf("enc_Wt", d_e * 3 * d));
      gemm(V, d_e, 3 * d, AGG, 0, 3 * d, Wt, 0, 3 * d, g.src_emb, 0, d_e, true); // d e_src = W^T dXp
    });
  }

  // encoder.RecurrentEncoder: the bidirectional GRU as a part of the model, beside lesson 09's encoder without
  // recurrence (attention_encoder.js): both give the decoder annotations H and the summary m its first state starts
  // from, with their backward; seq2seq.js's ENCODERS chooses one by cfg.encoder.
  function RecurrentEncoder(cfg) {
    this.cfg = cfg;
    this.d_e = cfg.d_emb;
    this.d_enc = cfg.d_enc;
    this.d_h = 2 * cfg.d_enc;
  }
  RecurrentEncoder.prototype.name = "recurrent";
  RecurrentEncoder.prototype.init = function (draw) {
    init(draw, this.cfg);
  };
  // Annotations H (N, T, d_h) and the cache backward reads: {H, cache}. It reads nothing: no weights.
  RecurrentEncoder.prototype.encode = function (p, src, N, T, keep, tag) {
    return { H: encode(p, this.cfg, src, N, T, keep, tag), cache: { src: src, N: N, T: T, tag: tag, weights: [] } };
  };
  RecurrentEncoder.prototype.backward = function (p, dH, cache, g) {
    encodeBackward(p, this.cfg, cache.src, cache.N, cache.T, dH, g, cache.tag);
  };
  // The fixed summary m = [->h_T; <-h_1] (N, d_h) of annotations H (N, T, d_h), into m: what each direction read last.
  RecurrentEncoder.prototype.summary = function (H, N, T, m) {
    var d = this.d_enc,
      d_h = this.d_h;
    for (var i = 0; i < N; i++) {
      for (var k = 0; k < d; k++) {
        m[i * d_h + k] = H[(i * T + T - 1) * d_h + k]; // ->h_T
        m[i * d_h + d + k] = H[i * T * d_h + d + k]; // <-h_1
      }
    }
  };
  // dL/dm (N, d_h) routed back, added into dH (N, T, d_h), to the two annotations it was cut from.
  RecurrentEncoder.prototype.summaryBackward = function (dm, N, T, dH) {
    var d = this.d_enc,
      d_h = this.d_h;
    for (var i = 0; i < N; i++) {
      for (var k = 0; k < d; k++) {
        dH[(i * T + T - 1) * d_h + k] += dm[i * d_h + k];
        dH[i * T * d_h + d + k] += dm[i * d_h + d + k];
      }
    }
  };

  lab.encoder = {
    freeze: freeze,
    inputTable: inputTable,
    init: init,
    encode: encode,
    encodeBackward: encodeBackward,
    RecurrentEncoder: RecurrentEncoder,
  };
}

if (typeof module === "object" && module.exports) module.exports = aeLabEncoder;
