// lab/attention_encoder.js: an encoder with no recurrence, the twin of src/attention_core/models/attention_encoder.py
// (same class, same methods, in the same order). It gives the decoder what the bidirectional GRU gave it,
// annotations h_j of width d_h = 2 d_enc and a summary for the first state, so that only the encoder changes:
//   z^0_j = W_x e_src(x_j) + b_x + P_j          P: the positions part (positions.js)
//   z^l   = layer_l(z^{l-1}),  l = 1..L          attention_layer.js's SelfAttentionLayer
//   h_j   = z^L_j,   m = (1/T) sum_j h_j         the summary s_0 starts from
// Parameter names: src_emb (V_src, d_e), sa_in_W (d_h, d_e), sa_in_b (d_h,), the positions' (pos_emb), the
// layers' (sa1_W_q, ...). Arrays are Float64Array, row-major: H (N, T, d_h), sentence-major.
// A part of the laboratory's mathematics: ../ae-lab-math.js puts the parts together.
function aeLabAttentionEncoder(lab) {
  "use strict";
  var K = lab.kernels,
    buf = K.buf,
    zeros = K.zeros,
    gemm = K.gemm,
    transpose = K.transpose;

  // attention_encoder.SelfAttentionEncoder: cfg.layers self-attention layers of width d_h over the embeddings plus
  // positions (cfg.positions, a name of positions.js's POSITIONS); cfg.tied: each layer reads back its keys.
  function SelfAttentionEncoder(cfg) {
    this.d_e = cfg.d_emb;
    this.d_h = 2 * cfg.d_enc;
    this.vocab = cfg.src_vocab;
    var Positions = lab.positions.POSITIONS[cfg.positions || "sinusoidal"];
    if (!Positions) throw new Error("positions must be one of " + Object.keys(lab.positions.POSITIONS) + ", got " + cfg.positions);
    this.positions = new Positions(this.d_h);
    this.layers = [];
    for (var l = 1; l <= cfg.layers; l++) this.layers.push(new lab.attention_layer.SelfAttentionLayer(l, this.d_h, cfg.d_ff, cfg.tied, false));
  }
  SelfAttentionEncoder.prototype.name = "self_attention";

  // The source embeddings (N(0, 1) * 0.5), the input projection (N(0, 1) / sqrt(d_e), bias zero), the positions',
  // then each layer's: draw(name, shape, scale) in the package's order.
  SelfAttentionEncoder.prototype.init = function (draw) {
    draw("src_emb", [this.vocab, this.d_e], 0.5);
    draw("sa_in_W", [this.d_h, this.d_e], 1 / Math.sqrt(this.d_e));
    draw("sa_in_b", [this.d_h], 0);
    this.positions.init(draw);
    this.layers.forEach(function (layer) {
      layer.init(draw);
    });
  };

  // Annotations H (N, T, d_h) of sentences src (N, T), and the cache backward reads: {H, cache}. The cache's
  // weights are each layer's alpha (N, T, T), row i the position that reads. tag names the working arrays (one set
  // per use: training, decoding); keep is the recurrent encoder's (this one always keeps what backward needs).
  SelfAttentionEncoder.prototype.encode = function (p, src, N, T, keep, tag) {
    var d = this.d_h,
      i,
      j,
      k;
    // W_x e_src(v) + b_x for every source word v, made once (for frozen parameters, once for good: encoder.js)
    var table = lab.encoder.inputTable(p, p.src_emb, p.sa_in_W, p.sa_in_b, this.vocab, this.d_e, d, this.d_e, "sa_in");
    var Z = buf(tag + "sa_z0", N * T * d),
      P = this.positions.forward(p, T); // (T, d) or null
    for (i = 0; i < N; i++) {
      for (j = 0; j < T; j++) {
        var row = (i * T + j) * d,
          v = src[i * T + j] * d;
        if (P) for (k = 0; k < d; k++) Z[row + k] = table[v + k] + P[j * d + k]; // the same P_j for every sentence
        else Z.set(table.subarray(v, v + d), row);
      }
    }
    var cache = { src: src, N: N, T: T, tag: tag, layers: [], weights: [] };
    this.layers.forEach(function (layer) {
      var r = layer.forward(p, Z, N, T, tag);
      Z = r.out;
      cache.layers.push(r.cache);
      cache.weights.push(r.A);
    });
    return { H: Z, cache: cache };
  };

  // Every encoder parameter's gradient, added into g, from dL/dH (N, T, d_h) and encode's cache. The embedding's
  // gradient gathers dL/dz^0 by source word (V x d_h), then takes one product.
  SelfAttentionEncoder.prototype.backward = function (p, dH, cache, g) {
    var d = this.d_h,
      d_e = this.d_e,
      V = this.vocab,
      N = cache.N,
      T = cache.T,
      tag = cache.tag,
      dZ = dH,
      i,
      j,
      k;
    for (var l = this.layers.length - 1; l >= 0; l--) dZ = this.layers[l].backward(p, dZ, cache.layers[l], g, tag);
    var dP = zeros(tag + "sa_dp", T * d); // P_j is shared by the batch: its gradient sums over the sentences
    var AGG = zeros(tag + "sa_agg", V * d); // dL/d(W_x e_src(v) + b_x), summed by source word v
    for (i = 0; i < N; i++) {
      for (j = 0; j < T; j++) {
        var row = (i * T + j) * d,
          v = cache.src[i * T + j] * d;
        for (k = 0; k < d; k++) {
          dP[j * d + k] += dZ[row + k];
          AGG[v + k] += dZ[row + k];
        }
      }
    }
    this.positions.backward(p, dP, T, g);
    K.colsum(AGG, 0, d, V, d, g.sa_in_b);
    var aggT = transpose(AGG, 0, d, V, d, buf("sa_aggT", d * V)),
      embT = transpose(p.src_emb, 0, d_e, V, d_e, buf("sa_embT", d_e * V));
    gemm(d, d_e, V, aggT, 0, V, embT, 0, V, g.sa_in_W, 0, d_e, true); // dW_x = sum dz^0 e_src^T: (d_h, d_e)
    var Wt = transpose(p.sa_in_W, 0, d_e, d, d_e, buf("sa_Wt", d_e * d));
    gemm(V, d_e, d, AGG, 0, d, Wt, 0, d, g.src_emb, 0, d_e, true); // d e_src = W_x^T dz^0: (V, d_e)
  };

  // attention_encoder.SelfAttentionEncoder.summary: m = (1/T) sum_j h_j (N, d_h), into m.
  SelfAttentionEncoder.prototype.summary = function (H, N, T, m) {
    var d = this.d_h;
    for (var i = 0; i < N; i++) {
      for (var k = 0; k < d; k++) {
        var s = 0;
        for (var j = 0; j < T; j++) s += H[(i * T + j) * d + k];
        m[i * d + k] = s / T;
      }
    }
  };

  // summary_backward: dL/dm (N, d_h) added into dH (N, T, d_h), a 1/T share to each annotation.
  SelfAttentionEncoder.prototype.summaryBackward = function (dm, N, T, dH) {
    var d = this.d_h;
    for (var i = 0; i < N; i++) for (var j = 0; j < T; j++) for (var k = 0; k < d; k++) dH[(i * T + j) * d + k] += dm[i * d + k] / T;
  };

  lab.attention_encoder = { SelfAttentionEncoder: SelfAttentionEncoder };
}

if (typeof module === "object" && module.exports) module.exports = aeLabAttentionEncoder;
