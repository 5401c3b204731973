// lab/seq2seq.js: the translation model, the twin of src/attention_core/models/seq2seq.py: one decoder built from
// an order (orders.js) and a score (scorers.js), chosen by the ModelConfig (the package's own field names:
// attention, order, score, d_emb, d_enc, d_dec, d_att, src_vocab, tgt_vocab; and lesson 09's encoder, positions,
// tied, layers, d_ff). Encoder (ENCODERS, by cfg.encoder): lesson 07's bidirectional GRU (encoder.js: annotations
// h_j and the summary m = [->h_T; <-h_1]) or lesson 09's self-attention layers (attention_encoder.js: m the mean of
// the h_j); then s_0 = tanh(W_init m + b_init). Decoder, for t = 1..U from y_0 = <s>:
//   o_t = the order's step from W_e e_tgt(y_{t-1}) + b, reading with the score;  p(y_t | ...) = softmax(W_o o_t + b_o)
// One decoder loop (decode) serves teacher forcing (forward), greedy decoding and the step-through trace (greedy).
// Loss: the mean over the N U target tokens of -log p(y_t | y_<t, x). The backward pass runs the parts' step
// backwards in reverse time, then the sums over steps that do not feed the recurrence, once.
// Arrays are Float64Array in row-major order with the package's shapes (W (3d, d_in), U (3d, d), ...).
// A part of the laboratory's mathematics: ../ae-lab-math.js puts the parts together.
function aeLabSeq2seq(lab) {
  "use strict";
  var K = lab.kernels,
    buf = K.buf,
    zeros = K.zeros,
    gemm = K.gemm,
    transpose = K.transpose,
    colsum = K.colsum;

  // seq2seq.ENCODERS: ModelConfig.encoder -> part (a config without the field has lesson 07's, "recurrent").
  var ENCODERS = { recurrent: lab.encoder.RecurrentEncoder, self_attention: lab.attention_encoder.SelfAttentionEncoder };

  // seq2seq.encoder_part: the encoder cfg names; both give annotations of width d_h = 2 d_enc.
  function encoderPart(cfg) {
    var Encoder = ENCODERS[cfg.encoder || "recurrent"];
    if (!Encoder) throw new Error("encoder must be one of " + Object.keys(ENCODERS) + ", got " + cfg.encoder);
    return new Encoder(cfg);
  }

  // ModelConfig.aligns: whether the arg-max of the decoder's weights names one source position (attention, and an
  // encoder that tells two copies of a word apart: the recurrent one, or self-attention told the positions).
  function aligns(cfg) {
    return !!cfg.attention && ((cfg.encoder || "recurrent") === "recurrent" || (cfg.positions || "sinusoidal") !== "none");
  }

  // seq2seq.decoder_parts: the order and the score cfg names (the fixed summary without attention).
  function decoderParts(cfg) {
    var S = lab.scorers,
      scorer = cfg.attention ? new S.SCORES[cfg.score](cfg) : new S.FixedSummary(cfg);
    return { order: new lab.orders.ORDERS[cfg.order](cfg), scorer: scorer };
  }

  // Every part of the model cfg names: the encoder, the order and the score.
  function modelParts(cfg) {
    var parts = decoderParts(cfg);
    parts.encoder = encoderPart(cfg);
    return parts;
  }

  // The parameters of seq2seq.init_params, in its order: draw(name, shape, scale) for each (scale 0: zeros).
  function layout(cfg, draw) {
    var parts = modelParts(cfg),
      d_h = 2 * cfg.d_enc,
      d_o = parts.order.outWidth;
    parts.encoder.init(draw);
    draw("init_W", [cfg.d_dec, d_h], 1 / Math.sqrt(d_h));
    draw("init_b", [cfg.d_dec], 0);
    draw("tgt_emb", [cfg.tgt_vocab, cfg.d_emb], 0.5);
    lab.gru.init(draw, "dec_", cfg.d_emb + parts.order.feedWidth, cfg.d_dec); // input [e_tgt; feed]
    parts.scorer.init(draw);
    parts.order.init(draw);
    draw("out_W", [cfg.tgt_vocab, d_o], 1 / Math.sqrt(d_o)); // W_o (V, d_o)
    draw("out_b", [cfg.tgt_vocab], 0);
  }

  // Shapes of a model's parameters, by name.
  function shapes(cfg) {
    var s = {};
    layout(cfg, function (name, shape) {
      s[name] = shape;
    });
    return s;
  }

  // seq2seq.init_params: matrices N(0, 1) / sqrt(fan_in), embeddings N(0, 1) * 0.5, biases zero, drawn from rng
  // (the page's generator: the same rules as numpy's, other numbers).
  function initParams(cfg, rng) {
    var p = {};
    layout(cfg, function (name, shape, scale) {
      var a = new Float64Array(K.size(shape));
      if (scale) for (var i = 0; i < a.length; i++) a[i] = rng.normal() * scale;
      p[name] = a;
    });
    return p;
  }

  // Parameters exported by the package ({config, arrays: {name: {shape, data: base64 float32, little-endian}}}),
  // name -> Float64Array. Each array's shape must be the one this model gives it, and no name may be missing.
  function decodeParams(exported) {
    var want = shapes(exported.config),
      out = {};
    Object.keys(want).forEach(function (name) {
      var a = exported.arrays[name];
      if (!a || String(a.shape) !== String(want[name])) {
        throw new Error("parameter " + name + ": shape " + (a ? "[" + a.shape + "]" : "missing") + ", expected [" + want[name] + "]");
      }
      var bytes = base64Bytes(a.data);
      var f32 = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
      if (f32.length !== K.size(want[name])) throw new Error("parameter " + name + ": " + f32.length + " numbers for shape [" + want[name] + "]");
      out[name] = Float64Array.from(f32);
    });
    return out;
  }

  function base64Bytes(text) {
    if (typeof atob === "function") {
      var bin = atob(text);
      var bytes = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      return bytes;
    }
    return new Uint8Array(Buffer.from(text, "base64")); // Node
  }

  // seq2seq.Seq2Seq._start: encode src (N, T); return the source every step reads ({N, T, H, K, m}), the encoder's
  // cache (enc), what the decoder keeps of its U steps (`steps`, with s_0 in steps.S; see scorers.js) and the table
  // W_e e_tgt(v) + b of the decoder's embedding input. With keep, room for what the backward pass needs. tag names
  // the working arrays.
  function start(p, cfg, parts, src, N, T, U, keep, tag) {
    var d_h = 2 * cfg.d_enc,
      d_s = cfg.d_dec,
      i,
      k;
    var encoded = parts.encoder.encode(p, src, N, T, keep, tag),
      H = encoded.H;
    var m = buf(tag + "m", N * d_h);
    parts.encoder.summary(H, N, T, m); // the summary s_0 starts from
    var steps = {
      tag: tag,
      N: N,
      T: T,
      U: U,
      shift: parts.order.shift,
      S: buf(tag + "S", (U + 1) * N * d_s), // s_0 .. s_U
      XE: buf(tag + "XE", N * 3 * d_s), // the embedding part of the current step's GRU input
      E: parts.scorer.weighted ? buf(tag + "E", U * N * T) : null,
      A: parts.scorer.weighted ? buf(tag + "A", U * N * T) : null,
      C: buf(tag + "C", U * N * d_h),
      O: buf(tag + "O", U * N * parts.order.outWidth),
      ACT: keep && parts.scorer.tapeWidth ? buf(tag + "ACT", U * N * T * parts.scorer.tapeWidth) : null,
      cache: keep ? lab.gru.cache(tag + "dec", U * N, d_s) : null,
    };
    gemm(N, d_s, d_h, m, 0, d_h, p.init_W, 0, d_h, steps.S, 0, d_s, false);
    for (i = 0; i < N; i++) for (k = 0; k < d_s; k++) steps.S[i * d_s + k] = K.tanh(steps.S[i * d_s + k] + p.init_b[k]); // s_0
    var source = { N: N, T: T, H: H, K: parts.scorer.keys(p, H, N, T, tag), m: m }; // keys once per sentence
    var d_in = cfg.d_emb + parts.order.feedWidth;
    var TE = lab.encoder.inputTable(p, p.tgt_emb, p.dec_W, p.dec_b, cfg.tgt_vocab, cfg.d_emb, 3 * d_s, d_in, "dec");
    return { source: source, enc: encoded.cache, steps: steps, TE: TE };
  }

  // The decoder loop (Seq2Seq._step at every step), shared by teacher forcing and greedy decoding: before step t,
  // input(t, XE) writes the rows W_e e_tgt(y_{t-1}) + b of the N sentences; after it, after(t) reads what it needs.
  function decode(p, parts, run, U, input, after) {
    parts.order.start(run.steps);
    for (var t = 0; t < U; t++) {
      input(t, run.steps.XE);
      parts.order.step(p, t, run.steps, parts.scorer, run.source);
      if (after) after(t);
    }
  }

  // The rows of the table TE for tokens ys (row i: ys[yo + i stride]) into XE.
  function embed(TE, rows, ys, yo, stride, N, XE) {
    for (var i = 0; i < N; i++) {
      var y = ys[yo + i * stride];
      XE.set(TE.subarray(y * rows, (y + 1) * rows), i * rows);
    }
  }

  // Seq2Seq.forward, teacher forcing: the loss (the mean over the N U target tokens of -log p) and, with keep, what
  // backward needs; without keep, weights: alpha (N, U, T), a new array (null for the baseline).
  function forward(p, cfg, batch, keep) {
    var N = batch.N,
      T = batch.T,
      U = batch.U,
      V = cfg.tgt_vocab,
      parts = modelParts(cfg),
      d_o = parts.order.outWidth,
      rows = 3 * cfg.d_dec,
      t,
      i;
    var run = start(p, cfg, parts, batch.src, N, T, U, keep, "f");
    decode(p, parts, run, U, function (t, XE) {
      embed(run.TE, rows, batch.tgtIn, t, U, N, XE); // the true previous tokens
    });
    var P = buf("f_P", U * N * V);
    gemm(U * N, V, d_o, run.steps.O, 0, d_o, p.out_W, 0, d_o, P, 0, V, false); // logits W_o o_t, every step at once
    var loss = 0;
    for (t = 0; t < U; t++) {
      for (i = 0; i < N; i++) {
        var row = (t * N + i) * V;
        for (var k = 0; k < V; k++) P[row + k] += p.out_b[k];
        K.softmaxInto(P, row, V, P, row); // p(y_t | y_<t, x)
        loss -= Math.log(Math.max(P[row + batch.tgtOut[i * U + t]], 1e-30));
      }
    }
    var weights = null,
      A = run.steps.A;
    if (A && !keep) {
      weights = new Float64Array(N * U * T);
      for (t = 0; t < U; t++) for (i = 0; i < N; i++) weights.set(A.subarray((t * N + i) * T, (t * N + i + 1) * T), (i * U + t) * T);
    }
    return { loss: loss / (N * U), weights: weights, run: run, parts: parts, batch: batch, keep: keep };
  }

  // Seq2Seq.backward: every parameter's gradient of the mean token loss, name -> Float64Array, written into g when
  // given (zeroed first). Must follow the forward pass (keep = true) it belongs to: it reads that pass's arrays.
  function backward(p, cfg, f, g) {
    var parts = f.parts,
      steps = f.run.steps,
      source = f.run.source,
      N = steps.N,
      T = steps.T,
      UN = steps.U * N,
      d_s = cfg.d_dec,
      d_h = 2 * cfg.d_enc,
      kw = parts.scorer.keyWidth;
    if (g) {
      Object.keys(g).forEach(function (name) {
        g[name].fill(0);
      });
    } else {
      g = K.zerosLike(p);
    }
    var grad = {
      T: {}, // the parameters' transposes this pass made
      dO: outputBackward(p, cfg, f.batch, steps.O, parts.order.outWidth, g), // dL/do_t
      DXP: buf("b_DXP", UN * 3 * d_s), // dL/d(the GRU's input projection)
      G: buf("b_G", UN * d_h), // dL/dc_t
      DE: parts.scorer.weighted ? buf("b_DE", UN * T) : null, // dL/de_tj
      dS: zeros("b_dS", N * d_s), // dL/ds_t from step t + 1 (the carry's gradient)
      dHT: zeros("b_dHT", N * d_s), // dL/ds~_t from step t + 1 (Luong's input feeding)
    };
    var dSource = { H: zeros("b_dH", N * T * d_h), K: kw ? zeros("b_dK", N * T * kw) : null, m: zeros("b_dm", N * d_h) };
    for (var t = steps.U - 1; t >= 0; t--) parts.order.stepBackward(p, t, steps, grad, parts.scorer, source, dSource);
    // the sums over steps that do not feed the recurrence, formed once
    parts.scorer.backward(p, steps, source, dSource, grad, g);
    parts.order.backward(p, steps, grad, g);
    inputBackward(p, cfg, f.batch, parts.order.feeds(steps), parts.order.feedWidth, steps, grad, g);
    startBackward(p, cfg, parts.encoder, steps, source, grad.dS, dSource, g);
    parts.encoder.backward(p, dSource.H, f.run.enc, g);
    return g;
  }

  // The output layer's backward: dL/dlogits = (p - onehot(y)) / (N U) for every token at once (in place of the
  // probabilities of the forward pass), dW_o and db_o into g; returns dL/do_t (U N, d_o).
  function outputBackward(p, cfg, batch, O, d_o, g) {
    var N = batch.N,
      U = batch.U,
      UN = U * N,
      V = cfg.tgt_vocab,
      P = buf("f_P", 0),
      scale = 1 / UN;
    for (var t = 0; t < U; t++) {
      for (var i = 0; i < N; i++) {
        var row = (t * N + i) * V;
        for (var k = 0; k < V; k++) P[row + k] *= scale;
        P[row + batch.tgtOut[i * U + t]] -= scale;
      }
    }
    colsum(P, 0, V, UN, V, g.out_b);
    var PT = transpose(P, 0, V, UN, V, buf("b_PT", V * UN)),
      OT = transpose(O, 0, d_o, UN, d_o, buf("b_OT", d_o * UN));
    gemm(V, d_o, UN, PT, 0, UN, OT, 0, UN, g.out_W, 0, d_o, true); // dW_o = sum dlogits o_t^T
    var outWt = transpose(p.out_W, 0, d_o, V, d_o, buf("b_outWt", d_o * V)),
      dO = buf("b_dO", UN * d_o);
    gemm(UN, d_o, V, P, 0, V, outWt, 0, V, dO, 0, d_o, false); // dL/do_t = W_o^T dlogits
    return dO;
  }

  // The decoder GRU's input and recurrent weights, summed over all steps: dU; dW = [dW_e, dW_f] from the
  // embeddings and the feeds (rows (U N, d_f)); db; and the target embeddings (gathered by word, one product each).
  function inputBackward(p, cfg, batch, feeds, d_f, steps, grad, g) {
    var N = batch.N,
      U = batch.U,
      UN = U * N,
      d_s = cfg.d_dec,
      d_e = cfg.d_emb,
      d_in = d_e + d_f,
      V = cfg.tgt_vocab;
    lab.gru.paramGrads(UN, d_s, grad.DXP, steps.S, steps.cache.rh, g.dec_U);
    var DXPT = transpose(grad.DXP, 0, 3 * d_s, UN, 3 * d_s, buf("b_DXPT", 3 * d_s * UN)),
      FT = transpose(feeds, 0, d_f, UN, d_f, buf("b_FT", d_f * UN));
    gemm(3 * d_s, d_f, UN, DXPT, 0, UN, FT, 0, UN, g.dec_W, d_e, d_in, true); // dW_f = sum dxp feed_t^T
    var AGG = zeros("b_agg", V * 3 * d_s); // the embedding input, gathered by target word
    for (var t = 0; t < U; t++) {
      for (var i = 0; i < N; i++) {
        var y = batch.tgtIn[i * U + t] * 3 * d_s,
          from = (t * N + i) * 3 * d_s;
        for (var k = 0; k < 3 * d_s; k++) AGG[y + k] += grad.DXP[from + k];
      }
    }
    colsum(AGG, 0, 3 * d_s, V, 3 * d_s, g.dec_b);
    var aggT = transpose(AGG, 0, 3 * d_s, V, 3 * d_s, buf("b_aggT", 3 * d_s * V)),
      embT = transpose(p.tgt_emb, 0, d_e, V, d_e, buf("b_embT", d_e * V));
    gemm(3 * d_s, d_e, V, aggT, 0, V, embT, 0, V, g.dec_W, 0, d_in, true); // dW_e = sum dxp e_tgt^T
    var decWt = lab.scorers.transposed(grad, p, "dec_W", 3 * d_s, d_in);
    gemm(V, d_e, 3 * d_s, AGG, 0, 3 * d_s, decWt, 0, 3 * d_s, g.tgt_emb, 0, d_e, true); // d e_tgt = W_e^T dxp
  }

  // Back through s_0 = tanh(W_init m + b_init) from dL/ds_0 (dS0), then through the encoder's summary m into
  // dSource.H.
  function startBackward(p, cfg, encoder, steps, source, dS0, dSource, g) {
    var N = steps.N,
      T = steps.T,
      d_s = cfg.d_dec,
      d_h = 2 * cfg.d_enc,
      S = steps.S,
      dm = dSource.m,
      i;
    var dPre = buf("b_dpre", N * d_s);
    for (i = 0; i < N * d_s; i++) dPre[i] = dS0[i] * (1 - S[i] * S[i]);
    var dPreT = transpose(dPre, 0, d_s, N, d_s, buf("b_dpreT", d_s * N)),
      mT = transpose(source.m, 0, d_h, N, d_h, buf("b_mT", d_h * N));
    gemm(d_s, d_h, N, dPreT, 0, N, mT, 0, N, g.init_W, 0, d_h, true);
    colsum(dPre, 0, d_s, N, d_s, g.init_b);
    var initWt = transpose(p.init_W, 0, d_h, d_s, d_h, buf("b_initWt", d_h * d_s));
    gemm(N, d_h, d_s, dPre, 0, d_s, initWt, 0, d_s, dm, 0, d_h, true);
    encoder.summaryBackward(dm, N, T, dSource.H);
  }

  function lossAndGrads(p, cfg, batch, g) {
    var f = forward(p, cfg, batch, true);
    return { loss: f.loss, grads: backward(p, cfg, f, g) };
  }

  // Seq2Seq.greedy: decode sentences src (N, T) from the start symbol bos, feeding back the most probable token:
  // tokens (N, maxLen) and weights (N, maxLen, T) or null. With trace (N = 1), every quantity of every step, as
  // Seq2Seq.greedy_trace (the state before and after, the scores, weights and context, the probabilities).
  function greedy(p, cfg, src, N, T, maxLen, trace, bos) {
    maxLen = maxLen || T + 1;
    var parts = modelParts(cfg),
      d_s = cfg.d_dec,
      d_h = 2 * cfg.d_enc,
      V = cfg.tgt_vocab,
      d_o = parts.order.outWidth,
      rows = 3 * d_s;
    var run = start(p, cfg, parts, src, N, T, maxLen, false, "g"),
      steps = run.steps;
    var tokens = new Int32Array(N * maxLen);
    var weights = steps.A ? new Float64Array(N * maxLen * T) : null;
    var L = buf("g_L", N * V),
      ys = new Int32Array(N).fill(bos),
      tr = null;
    if (trace) {
      tr = { y_prev: [], s_prev: [], scores: steps.A ? [] : null, weights: steps.A ? [] : null, context: [], state: [], probs: [], tokens: [], annotations: [] };
      for (var j = 0; j < T; j++) tr.annotations.push(Array.from(run.source.H.subarray(j * d_h, (j + 1) * d_h)));
    }
    decode(
      p,
      parts,
      run,
      maxLen,
      function (t, XE) {
        embed(run.TE, rows, ys, 0, 1, N, XE); // the previous step's choice
      },
      function (t) {
        gemm(N, V, d_o, steps.O, t * N * d_o, d_o, p.out_W, 0, d_o, L, 0, V, false); // W_o o_t
        for (var i = 0; i < N; i++) {
          var best = 0;
          for (var k = 0; k < V; k++) {
            L[i * V + k] += p.out_b[k];
            if (L[i * V + k] > L[i * V + best]) best = k;
          }
          if (tr) {
            var probs = new Float64Array(V),
              at = t * N * T;
            K.softmaxInto(L, i * V, V, probs, 0);
            tr.y_prev.push(ys[i]);
            tr.s_prev.push(Array.from(steps.S.subarray(t * N * d_s, (t + 1) * N * d_s)));
            if (steps.A) {
              tr.scores.push(Array.from(steps.E.subarray(at, at + T)));
              tr.weights.push(Array.from(steps.A.subarray(at, at + T)));
            }
            tr.context.push(Array.from(steps.C.subarray(t * N * d_h, t * N * d_h + d_h)));
            tr.state.push(Array.from(steps.S.subarray((t + 1) * N * d_s, (t + 2) * N * d_s)));
            tr.probs.push(Array.from(probs));
            tr.tokens.push(best);
          }
          tokens[i * maxLen + t] = best;
          ys[i] = best;
          if (weights) weights.set(steps.A.subarray((t * N + i) * T, (t * N + i + 1) * T), (i * maxLen + t) * T);
        }
      }
    );
    return { tokens: tokens, weights: weights, trace: tr, maxLen: maxLen };
  }

  // Teacher-forced weights (U, T) of one pair: what the model reads for each reference word (the snapshots').
  function teacherWeights(p, cfg, G, pair) {
    return forward(p, cfg, lab.data.stack(G, [pair]), false).weights;
  }

  // Seq2Seq.encoder_reads: what each self-attention layer of the encoder reads for sentences src (N, T): one
  // Float64Array (N, T, T) of weights alpha_ij per layer (new arrays), row i the position that reads; [] for the
  // recurrent encoder, which reads nothing.
  function encoderReads(p, cfg, src, N, T) {
    var r = encoderPart(cfg).encode(p, src, N, T, false, "r");
    return r.cache.weights.map(function (A) {
      return Float64Array.from(A.subarray(0, N * T * T));
    });
  }

  lab.seq2seq = {
    ENCODERS: ENCODERS,
    encoderPart: encoderPart,
    aligns: aligns,
    decoderParts: decoderParts,
    shapes: shapes,
    initParams: initParams,
    decodeParams: decodeParams,
    freeze: lab.encoder.freeze,
    start: start,
    decode: decode,
    forward: forward,
    backward: backward,
    lossAndGrads: lossAndGrads,
    greedy: greedy,
    teacherWeights: teacherWeights,
    encoderReads: encoderReads,
  };
}

if (typeof module === "object" && module.exports) module.exports = aeLabSeq2seq;
