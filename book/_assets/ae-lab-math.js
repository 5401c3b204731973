// The mathematics of lesson 07's laboratory: a second implementation of attention_core.models in plain
// JavaScript, for the website (a Web Worker trains with it; the page decodes and steps with it) and for Node
// (tests/site/test_lab_math.py checks it against the numpy package: greedy translations, weights, the loss,
// every gradient and the optimiser). One function, aeLabMath, holds everything and closes over nothing, so
// the page can start a Worker from its source text (no second file to fetch, works from file:// too).
//
// The model (attention_core.models.seq2seq, Bahdanau's order), for t = 1..U:
//   e_tj  = v^T tanh(W_s s_{t-1} + W_h h_j + b)            scores (keys k_j = W_h h_j + b, once per sentence)
//   alpha_t = softmax_j(e_tj),  c_t = sum_j alpha_tj h_j    the read, with the previous state
//   s_t   = GRU(s_{t-1}, [e_tgt(y_{t-1}); c_t])             then the state update
//   p(y_t | y_<t, x) = softmax(W_o [s_t; c_t] + b_o)
// with s_0 = tanh(W_init m + b_init), m = [->h_T; <-h_1]; the fixed-summary baseline reads c_t = m instead.
// Encoder: a bidirectional GRU (z, r, n gates stacked in that order) over e_src(x_j); h_j = [->h_j; <-h_j].
// Loss: the mean over the N U target tokens of -log p(y_t | y_<t, x) (teacher forcing).
// Training (attention_core.models.train): the gradient rescaled to global norm <= clip_norm, Adam with the bias
// corrections folded into the step size, a learning rate warmed up linearly then decayed exponentially; batches
// of one source length, shuffled within each length and then as batches, from a seeded generator.
//
// Arrays are Float64Array in row-major order with the package's shapes (W (3d, d_in), U (3d, d), ...).
(function (root, factory) {
  "use strict";
  var api = factory();
  api.factory = factory; // the Worker is started from this function's source
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.AELabMath = api;
})(typeof self !== "undefined" ? self : this, function aeLabMath() {
  "use strict";

  // ---------------------------------------------------------------------------------------------------------
  // Random numbers: a small seeded generator (sfc32 seeded by splitmix32). Not numpy's stream: the same rules
  // (uniforms, integers floor(u n), normals, permutations) with other numbers.

  function splitmix32(a) {
    return function () {
      a = (a + 0x9e3779b9) | 0;
      var z = a;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
  }

  function Rng(seed) {
    var init = splitmix32((seed >>> 0) ^ 0x5eed5eed);
    this.a = init();
    this.b = init();
    this.c = init();
    this.d = init();
    this.spare = null;
    for (var i = 0; i < 12; i++) this.next32();
  }
  Rng.prototype.next32 = function () {
    var t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  };
  // A uniform double in [0, 1) with 53 random bits.
  Rng.prototype.random = function () {
    var hi = this.next32() >>> 5;
    var lo = this.next32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  };
  // A uniform integer in [0, n): floor(u n), as attention_core.models.data.Draws.integer.
  Rng.prototype.integer = function (n) {
    return Math.floor(this.random() * n);
  };
  // A standard normal (Box-Muller, the second value kept for the next call).
  Rng.prototype.normal = function () {
    if (this.spare !== null) {
      var s = this.spare;
      this.spare = null;
      return s;
    }
    var u = 0;
    while (u === 0) u = this.random();
    var r = Math.sqrt(-2 * Math.log(u));
    var th = 2 * Math.PI * this.random();
    this.spare = r * Math.sin(th);
    return r * Math.cos(th);
  };
  // A random permutation of an array (Fisher-Yates; a new array).
  Rng.prototype.permutation = function (items) {
    var a = items.slice();
    for (var i = a.length - 1; i > 0; i--) {
      var j = this.integer(i + 1);
      var x = a[i];
      a[i] = a[j];
      a[j] = x;
    }
    return a;
  };

  // ---------------------------------------------------------------------------------------------------------
  // The toy language (attention_core.models.data): the grammar comes from the package's export.
  //   sentence = NP VERB NP (PREP NP)*,  NP = DET ADJ* NOUN (0..max_adj distinct adjectives), <= max_len tokens
  // The target translates word for word; inside each NP the noun moves in front of its adjectives, which come
  // out in reverse order: DET NOUN ADJ_k ... ADJ_1.

  var CLASSES = ["determiner", "adjective", "noun", "verb", "preposition"];
  var END = "end";

  // Lookup tables of a grammar G = {groups: {determiner: [[src, tgt], ...], ...}, src_words, tgt_words, ...}.
  function language(G) {
    if (G._lang) return G._lang;
    var classOf = {},
      srcId = {},
      tgtId = {},
      translate = {};
    G.src_words.forEach(function (w, i) {
      srcId[w] = i;
    });
    G.tgt_words.forEach(function (w, i) {
      tgtId[w] = i;
    });
    CLASSES.forEach(function (cls) {
      G.groups[cls].forEach(function (pair) {
        classOf[pair[0]] = cls;
        translate[pair[0]] = pair[1];
      });
    });
    G._lang = { classOf: classOf, srcId: srcId, tgtId: tgtId, translate: translate };
    return G._lang;
  }

  function nounPhrase(G, rng) {
    var k = rng.integer(G.max_adj + 1);
    var pool = [];
    for (var i = 0; i < G.groups.adjective.length; i++) pool.push(i);
    var words = [G.groups.determiner[rng.integer(G.groups.determiner.length)][0]];
    for (var a = 0; a < k; a++) words.push(G.groups.adjective[pool.splice(rng.integer(pool.length), 1)[0]][0]);
    words.push(G.groups.noun[rng.integer(G.groups.noun.length)][0]);
    var order = [0, k + 1];
    for (var b = k; b >= 1; b--) order.push(b);
    return { words: words, order: order };
  }

  // One sentence pair: {src: [words], tgt: [words], align: [source position of each target word]}.
  function sampleSentence(G, rng) {
    var L = language(G);
    for (;;) {
      var phrases = [nounPhrase(G, rng), { words: [G.groups.verb[rng.integer(G.groups.verb.length)][0]], order: [0] }];
      phrases.push(nounPhrase(G, rng));
      var pps = rng.integer(G.max_pp + 1);
      for (var i = 0; i < pps; i++) {
        phrases.push({ words: [G.groups.preposition[rng.integer(G.groups.preposition.length)][0]], order: [0] });
        phrases.push(nounPhrase(G, rng));
      }
      var src = [],
        align = [];
      phrases.forEach(function (ph) {
        ph.order.forEach(function (i) {
          align.push(src.length + i);
        });
        src.push.apply(src, ph.words);
      });
      if (src.length <= G.max_len) {
        return {
          src: src,
          tgt: align.map(function (j) {
            return L.translate[src[j]];
          }),
          align: align,
        };
      }
    }
  }

  // Token ids of a sentence pair: {src: Int32Array, tgt: Int32Array, align: Int32Array, words: {...}}.
  function encodePair(G, pair) {
    var L = language(G);
    return {
      src: Int32Array.from(pair.src, function (w) {
        return L.srcId[w];
      }),
      tgt: Int32Array.from(pair.tgt, function (w) {
        return L.tgtId[w];
      }),
      align: Int32Array.from(pair.align),
      words: pair,
    };
  }

  // Distinct sentence pairs: test first, then validation, then training (as data.make_splits).
  function makeSplits(G, seed, nTrain, nValid, nTest) {
    var rng = new Rng(seed);
    var seen = new Set(),
      pairs = [];
    while (pairs.length < nTest + nValid + nTrain) {
      var p = sampleSentence(G, rng);
      var key = p.src.join(" ");
      if (!seen.has(key)) {
        seen.add(key);
        pairs.push(encodePair(G, p));
      }
    }
    return { test: pairs.slice(0, nTest), valid: pairs.slice(nTest, nTest + nValid), train: pairs.slice(nTest + nValid) };
  }

  // Pairs of one source length stacked: src (N, T), tgtIn (N, U) = <s> y_1..y_T, tgtOut (N, U) = y_1..y_T </s>.
  function stack(G, pairs) {
    var N = pairs.length,
      T = pairs[0].src.length,
      U = T + 1;
    var b = { N: N, T: T, U: U, src: new Int32Array(N * T), tgtIn: new Int32Array(N * U), tgtOut: new Int32Array(N * U), align: new Int32Array(N * T) };
    for (var n = 0; n < N; n++) {
      var p = pairs[n];
      if (p.src.length !== T) throw new Error("a batch holds one source length");
      b.src.set(p.src, n * T);
      b.align.set(p.align, n * T);
      b.tgtIn[n * U] = G.bos_id;
      b.tgtIn.set(p.tgt, n * U + 1);
      b.tgtOut.set(p.tgt, n * U);
      b.tgtOut[n * U + T] = G.eos_id;
    }
    return b;
  }

  // Group by source length and cut into batches (data.length_batches); with rng, shuffled as the package does.
  function lengthBatches(G, pairs, batchSize, rng) {
    var byLength = new Map();
    pairs.forEach(function (p, i) {
      var T = p.src.length;
      if (!byLength.has(T)) byLength.set(T, []);
      byLength.get(T).push(i);
    });
    var lengths = Array.from(byLength.keys()).sort(function (a, b) {
      return a - b;
    });
    var batches = [];
    lengths.forEach(function (T) {
      var idx = byLength.get(T);
      if (rng) idx = rng.permutation(idx);
      for (var k = 0; k < idx.length; k += batchSize) {
        batches.push(
          stack(
            G,
            idx.slice(k, k + batchSize).map(function (i) {
              return pairs[i];
            })
          )
        );
      }
    });
    if (rng) {
      var order = [];
      for (var i = 0; i < batches.length; i++) order.push(i);
      batches = rng.permutation(order).map(function (i) {
        return batches[i];
      });
    }
    return batches;
  }

  // The grammar as a parser (data._state_after, data.parse, data.next_classes). An error is
  // {kind, position, word, allowed}; kinds as data.SentenceError: unknown, order, repeat, adjectives, phrases,
  // length, unfinished, empty.
  function walk(G, words) {
    var L = language(G);
    var nps = 0,
      pps = 0,
      adjs = [],
      expect = ["determiner"];
    for (var i = 0; i < words.length; i++) {
      var word = words[i];
      if (i >= G.max_len) return { error: { kind: "length", position: i, word: word, allowed: [] } };
      var cls = L.classOf[word];
      var err = function (kind, allowed) {
        return { error: { kind: kind, position: i, word: word, allowed: allowed } };
      };
      if (cls === undefined) return err("unknown", expect);
      if (expect.indexOf(cls) < 0) {
        if (cls === "adjective" && adjs.length === G.max_adj && expect.length === 1 && expect[0] === "noun") return err("adjectives", expect);
        if (cls === "preposition" && pps === G.max_pp && nps >= 2) return err("phrases", expect);
        return err("order", expect);
      }
      if (cls === "adjective" && adjs.indexOf(word) >= 0) {
        return err(
          "repeat",
          expect.filter(function (c) {
            return c !== END;
          })
        );
      }
      if (cls === "determiner") {
        adjs = [];
        expect = ["adjective", "noun"];
      } else if (cls === "adjective") {
        adjs.push(word);
        expect = adjs.length < G.max_adj ? ["adjective", "noun"] : ["noun"];
      } else if (cls === "noun") {
        nps += 1;
        expect = nps === 1 ? ["verb"] : pps < G.max_pp ? ["preposition", END] : [END];
      } else if (cls === "verb") {
        expect = ["determiner"];
      } else {
        pps += 1;
        expect = ["determiner"];
      }
    }
    return { expect: expect, nps: nps };
  }

  function shortestRest(cls, nps) {
    var first = nps === 0 ? 3 : 0;
    return { determiner: 1 + first, adjective: 1 + first, noun: first, verb: 2, preposition: 2 }[cls] || 0;
  }

  // The classes allowed after a prefix (END where the sentence may stop), or {error}.
  function nextClasses(G, words) {
    var state = walk(G, words);
    if (state.error) return state;
    return {
      allowed: state.expect.filter(function (c) {
        return c === END || words.length + 1 + shortestRest(c, state.nps) <= G.max_len;
      }),
    };
  }

  // A typed sentence: {pair: {src, tgt, align, words}} (the grammar's translation and true alignment) or {error}.
  function parse(G, words) {
    if (!words.length) return { error: { kind: "empty", position: 0, word: "", allowed: ["determiner"] } };
    var state = walk(G, words);
    if (state.error) return state;
    if (state.expect.indexOf(END) < 0) return { error: { kind: "unfinished", position: words.length, word: "", allowed: state.expect } };
    var L = language(G);
    var align = [],
      start = 0;
    while (start < words.length) {
      var end = start + 1;
      if (L.classOf[words[start]] === "determiner") {
        while (L.classOf[words[end - 1]] !== "noun") end++;
        var k = end - start - 2;
        align.push(start, start + k + 1);
        for (var a = k; a >= 1; a--) align.push(start + a);
      } else {
        align.push(start);
      }
      start = end;
    }
    var pair = {
      src: words.slice(),
      tgt: align.map(function (j) {
        return L.translate[words[j]];
      }),
      align: align,
    };
    return { pair: encodePair(G, pair) };
  }

  // ---------------------------------------------------------------------------------------------------------
  // Kernels. Every product is computed as C = A B^T (gemm): its inner loop runs along two contiguous rows and a
  // block of 4 x 2 outputs shares the loads. A B and A^T B are formed by transposing an operand first, which is
  // cheap beside the product. Working arrays come from a pool, reused from one call to the next.

  var pool = {};

  // A working array of at least n numbers, named by its use (its contents are whatever the last user left).
  function buf(name, n) {
    var b = pool[name];
    if (!b || b.length < n) b = pool[name] = new Float64Array(Math.max(n, b ? 2 * b.length : 0));
    return b;
  }

  function zeros(name, n) {
    var b = buf(name, n);
    b.fill(0, 0, n);
    return b;
  }

  // C[m, n] (+)= sum_k A[ao + m lda + k] B[bo + n ldb + k] for m < M, n < N, k < K.
  function gemm(M, N, K, A, ao, lda, B, bo, ldb, C, co, ldc, add) {
    var m = 0,
      n,
      k,
      x,
      w0,
      w1;
    for (; m + 3 < M; m += 4) {
      var a0 = ao + m * lda,
        a1 = a0 + lda,
        a2 = a1 + lda,
        a3 = a2 + lda;
      var c0 = co + m * ldc,
        c1 = c0 + ldc,
        c2 = c1 + ldc,
        c3 = c2 + ldc;
      for (n = 0; n + 1 < N; n += 2) {
        var b0 = bo + n * ldb,
          b1 = b0 + ldb;
        var s00 = 0,
          s01 = 0,
          s10 = 0,
          s11 = 0,
          s20 = 0,
          s21 = 0,
          s30 = 0,
          s31 = 0;
        for (k = 0; k < K; k++) {
          w0 = B[b0 + k];
          w1 = B[b1 + k];
          x = A[a0 + k];
          s00 += x * w0;
          s01 += x * w1;
          x = A[a1 + k];
          s10 += x * w0;
          s11 += x * w1;
          x = A[a2 + k];
          s20 += x * w0;
          s21 += x * w1;
          x = A[a3 + k];
          s30 += x * w0;
          s31 += x * w1;
        }
        if (add) {
          C[c0 + n] += s00;
          C[c0 + n + 1] += s01;
          C[c1 + n] += s10;
          C[c1 + n + 1] += s11;
          C[c2 + n] += s20;
          C[c2 + n + 1] += s21;
          C[c3 + n] += s30;
          C[c3 + n + 1] += s31;
        } else {
          C[c0 + n] = s00;
          C[c0 + n + 1] = s01;
          C[c1 + n] = s10;
          C[c1 + n + 1] = s11;
          C[c2 + n] = s20;
          C[c2 + n + 1] = s21;
          C[c3 + n] = s30;
          C[c3 + n + 1] = s31;
        }
      }
      if (n < N) {
        var b = bo + n * ldb,
          t0 = 0,
          t1 = 0,
          t2 = 0,
          t3 = 0;
        for (k = 0; k < K; k++) {
          w0 = B[b + k];
          t0 += A[a0 + k] * w0;
          t1 += A[a1 + k] * w0;
          t2 += A[a2 + k] * w0;
          t3 += A[a3 + k] * w0;
        }
        C[c0 + n] = add ? C[c0 + n] + t0 : t0;
        C[c1 + n] = add ? C[c1 + n] + t1 : t1;
        C[c2 + n] = add ? C[c2 + n] + t2 : t2;
        C[c3 + n] = add ? C[c3 + n] + t3 : t3;
      }
    }
    for (; m < M; m++) {
      var a = ao + m * lda,
        c = co + m * ldc;
      for (n = 0; n < N; n++) {
        var bn = bo + n * ldb,
          s = 0;
        for (k = 0; k < K; k++) s += A[a + k] * B[bn + k];
        C[c + n] = add ? C[c + n] + s : s;
      }
    }
  }

  // out (cols x rows) = the transpose of A (rows x cols, at ao with row stride lda).
  function transpose(A, ao, lda, rows, cols, out) {
    for (var r = 0; r < rows; r++) {
      var base = ao + r * lda;
      for (var c = 0; c < cols; c++) out[c * rows + r] = A[base + c];
    }
    return out;
  }

  // g[k] += sum of the rows of A (rows x cols, row stride lda).
  function colsum(A, ao, lda, rows, cols, g) {
    for (var r = 0; r < rows; r++) for (var c = 0; c < cols; c++) g[c] += A[ao + r * lda + c];
  }

  // tanh from exp (about a third faster than Math.tanh in V8; the same to about 3e-16).
  function tanh(x) {
    if (x > 20) return 1;
    if (x < -20) return -1;
    var e = Math.exp(2 * x);
    return (e - 1) / (e + 1);
  }

  function sigmoid(x) {
    return 0.5 * (1 + tanh(0.5 * x)); // as gru.sigmoid: never overflows
  }

  // Softmax of x[o .. o + n) into y[yo ..], the maximum subtracted first.
  function softmaxInto(x, o, n, y, yo) {
    var top = -Infinity,
      j;
    for (j = 0; j < n; j++) if (x[o + j] > top) top = x[o + j];
    var total = 0;
    for (j = 0; j < n; j++) {
      var z = Math.exp(x[o + j] - top);
      y[yo + j] = z;
      total += z;
    }
    for (j = 0; j < n; j++) y[yo + j] /= total;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Parameters

  // Shapes of a model's parameters (seq2seq.init_params) from its ModelConfig (the package's own field names).
  function shapes(cfg) {
    var d_h = 2 * cfg.d_enc,
      s = {};
    s.src_emb = [cfg.src_vocab, cfg.d_emb];
    ["fw", "bw"].forEach(function (dir) {
      s["enc_" + dir + "_W"] = [3 * cfg.d_enc, cfg.d_emb];
      s["enc_" + dir + "_U"] = [3 * cfg.d_enc, cfg.d_enc];
      s["enc_" + dir + "_b"] = [3 * cfg.d_enc];
    });
    s.init_W = [cfg.d_dec, d_h];
    s.init_b = [cfg.d_dec];
    s.tgt_emb = [cfg.tgt_vocab, cfg.d_emb];
    s.dec_W = [3 * cfg.d_dec, cfg.d_emb + d_h];
    s.dec_U = [3 * cfg.d_dec, cfg.d_dec];
    s.dec_b = [3 * cfg.d_dec];
    if (cfg.attention) {
      s.att_W_s = [cfg.d_att, cfg.d_dec];
      s.att_W_h = [cfg.d_att, d_h];
      s.att_v = [cfg.d_att];
      s.att_b = [cfg.d_att];
    }
    s.out_W = [cfg.tgt_vocab, cfg.d_dec + d_h];
    s.out_b = [cfg.tgt_vocab];
    return s;
  }

  function size(shape) {
    return shape.reduce(function (a, b) {
      return a * b;
    }, 1);
  }

  function zerosLike(params) {
    var out = {};
    Object.keys(params).forEach(function (k) {
      out[k] = new Float64Array(params[k].length);
    });
    return out;
  }

  // The initialisation rules of seq2seq.init_params, in its order: embeddings N(0, 1) * 0.5, every matrix
  // N(0, 1) / sqrt(fan_in), every bias zero.
  function initParams(cfg, rng) {
    var sh = shapes(cfg),
      p = {};
    function normal(name, scale) {
      var a = new Float64Array(size(sh[name]));
      for (var i = 0; i < a.length; i++) a[i] = rng.normal() * scale;
      p[name] = a;
    }
    function zero(name) {
      p[name] = new Float64Array(size(sh[name]));
    }
    var d_h = 2 * cfg.d_enc;
    normal("src_emb", 0.5);
    ["fw", "bw"].forEach(function (dir) {
      normal("enc_" + dir + "_W", 1 / Math.sqrt(cfg.d_emb));
      normal("enc_" + dir + "_U", 1 / Math.sqrt(cfg.d_enc));
      zero("enc_" + dir + "_b");
    });
    normal("init_W", 1 / Math.sqrt(d_h));
    zero("init_b");
    normal("tgt_emb", 0.5);
    normal("dec_W", 1 / Math.sqrt(cfg.d_emb + d_h));
    normal("dec_U", 1 / Math.sqrt(cfg.d_dec));
    zero("dec_b");
    if (cfg.attention) {
      normal("att_W_s", 1 / Math.sqrt(cfg.d_dec));
      normal("att_W_h", 1 / Math.sqrt(d_h));
      normal("att_v", 1 / Math.sqrt(cfg.d_att));
      zero("att_b");
    }
    normal("out_W", 1 / Math.sqrt(cfg.d_dec + d_h));
    zero("out_b");
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
      if (f32.length !== size(want[name])) throw new Error("parameter " + name + ": " + f32.length + " numbers for shape [" + want[name] + "]");
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

  // ---------------------------------------------------------------------------------------------------------
  // The GRU (gru.py), one step for a batch of N rows. Arrays of states and gates are time-major: the rows of
  // step t start at t N d.

  // XP (N x 3d, at xo) holds W x + b; the previous states are the rows of Hs at ho; the new ones go to Out at
  // oo. The gates z, r, r h and n are kept in cache at co when a cache is given.
  function gruForward(N, d, XP, xo, Hs, ho, U, Out, oo, cache, co) {
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
        if (cache) {
          var at = co + i * d + k;
          cache.z[at] = z;
          cache.r[at] = zr[i * 2 * d + d + k];
          cache.rh[at] = rh[i * d + k];
          cache.n[at] = n;
        }
        Out[oo + i * d + k] = (1 - z) * h + z * n; // h' = (1 - z) h + z n
      }
    }
  }

  // Back-propagate dL/dh' (rows of dHn at go) through one cached step (gru.gru_step_backward): writes
  // DXP (N x 3d at xo) = [dz_pre, dr_pre, dn_pre] and dL/dh (rows of dPrev at po). Ut is U^T (d x 3d). The
  // gradient of U is summed over every step at once afterwards (gruParamGrads).
  function gruBackward(N, d, dHn, go, cache, co, Hs, ho, Ut, DXP, xo, dPrev, po) {
    var drh = buf("gru_drh", N * d);
    var i, k, at, g, z, n, r;
    for (i = 0; i < N; i++) {
      for (k = 0; k < d; k++) {
        at = co + i * d + k;
        g = dHn[go + i * d + k];
        z = cache.z[at];
        n = cache.n[at];
        DXP[xo + i * 3 * d + 2 * d + k] = g * z * (1 - n * n); // dn_pre
        DXP[xo + i * 3 * d + k] = g * (n - Hs[ho + i * d + k]) * z * (1 - z); // dz_pre
      }
    }
    gemm(N, d, d, DXP, xo + 2 * d, 3 * d, Ut, 2 * d, 3 * d, drh, 0, d, false); // d(r h) = dn_pre U_n
    for (i = 0; i < N; i++) {
      for (k = 0; k < d; k++) {
        at = co + i * d + k;
        r = cache.r[at];
        DXP[xo + i * 3 * d + d + k] = drh[i * d + k] * Hs[ho + i * d + k] * r * (1 - r); // dr_pre
        dPrev[po + i * d + k] = dHn[go + i * d + k] * (1 - cache.z[at]) + drh[i * d + k] * r;
      }
    }
    gemm(N, d, 2 * d, DXP, xo, 3 * d, Ut, 0, 3 * d, dPrev, po, d, true); // + [dz_pre, dr_pre] U_zr
  }

  // dU of a GRU from all its M step rows at once: dU_zr += [dz, dr]^T h_prev, dU_n += dn^T (r h).
  function gruParamGrads(M, d, DXP, Hprev, RH, gU) {
    var dT = transpose(DXP, 0, 3 * d, M, 3 * d, buf("gp_dxp", 3 * d * M));
    var hT = transpose(Hprev, 0, d, M, d, buf("gp_h", d * M));
    var rT = transpose(RH, 0, d, M, d, buf("gp_rh", d * M));
    gemm(2 * d, d, M, dT, 0, M, hT, 0, M, gU, 0, d, true);
    gemm(d, d, M, dT, 2 * d * M, M, rT, 0, M, gU, 2 * d * d, d, true);
  }

  function gruCache(tag, M, d) {
    return { z: buf(tag + "z", M * d), r: buf(tag + "r", M * d), rh: buf(tag + "rh", M * d), n: buf(tag + "n", M * d) };
  }

  // ---------------------------------------------------------------------------------------------------------
  // The encoder (encoder.encode): h_j = [->h_j; <-h_j] of a bidirectional GRU over e_src(x_j).
  // A direction's states are kept in the order it reads: HS[0] = 0 and HS[s + 1] after its s-th position.

  // Parameters that never change (the committed model in the page): their input tables are made once.
  var frozen = typeof WeakMap === "function" ? new WeakMap() : null;
  function freeze(p) {
    if (frozen) frozen.set(p, {});
    return p;
  }

  // W e(v) + b for every word v of a vocabulary (V x 3d): one table instead of a product per position. For
  // frozen parameters, made once and kept under `name`.
  function inputTable(p, emb, W, b, V, d_e, rows, ld, name) {
    var kept = frozen && frozen.get(p);
    if (kept && kept[name]) return kept[name];
    var table = kept ? new Float64Array(V * rows) : buf("tab_" + name, V * rows);
    gemm(V, rows, d_e, emb, 0, d_e, W, 0, ld, table, 0, rows, false);
    for (var v = 0; v < V; v++) for (var q = 0; q < rows; q++) table[v * rows + q] += b[q];
    if (kept) kept[name] = table;
    return table;
  }

  // Annotations H (N, T, 2 d_enc), sentence-major, of sentences src (N, T). tag names the working arrays.
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
      var cache = keep ? gruCache(tag + dir, T * N, d) : null;
      for (var s = 0; s < T; s++) {
        var j = half === 0 ? s : T - 1 - s;
        for (var i = 0; i < N; i++) XP.set(EW.subarray(src[i * T + j] * 3 * d, (src[i * T + j] + 1) * 3 * d), i * 3 * d);
        gruForward(N, d, XP, 0, HS, s * N * d, U, HS, (s + 1) * N * d, cache, s * N * d);
        for (i = 0; i < N; i++) H.set(HS.subarray((s + 1) * N * d + i * d, (s + 1) * N * d + (i + 1) * d), (i * T + j) * d_h + half * d);
      }
    });
    return H;
  }

  function encodeBackward(p, cfg, src, N, T, dH, g, tag) {
    var d_e = cfg.d_emb,
      d = cfg.d_enc,
      d_h = 2 * d,
      V = cfg.src_vocab;
    ["fw", "bw"].forEach(function (dir, half) {
      var W = p["enc_" + dir + "_W"],
        HS = buf(tag + "HS" + dir, 0),
        cache = gruCache(tag + dir, T * N, d);
      var Ut = transpose(p["enc_" + dir + "_U"], 0, d, 3 * d, d, buf("enc_ut", 3 * d * d));
      var DXP = buf("enc_dxp", T * N * 3 * d),
        dh = zeros("enc_dh", N * d),
        dHn = buf("enc_dhn", N * d);
      for (var s = T - 1; s >= 0; s--) {
        var j = half === 0 ? s : T - 1 - s;
        for (var i = 0; i < N; i++) for (var k = 0; k < d; k++) dHn[i * d + k] = dh[i * d + k] + dH[(i * T + j) * d_h + half * d + k];
        gruBackward(N, d, dHn, 0, cache, s * N * d, HS, s * N * d, Ut, DXP, s * N * 3 * d, dh, 0);
      }
      gruParamGrads(T * N, d, DXP, HS, cache.rh, g["enc_" + dir + "_U"]);
      // the input part W e_src(x) + b: gather the rows of each source word, then one product per word
      var AGG = zeros("enc_agg", V * 3 * d);
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

  // ---------------------------------------------------------------------------------------------------------
  // The decoder. Everything of one sentence pair or batch that does not depend on the step is made once
  // (prepare); attend() and the GRU then run one step for the whole batch, shared by teacher forcing, greedy
  // decoding and the step-through trace.

  // Encoder, fixed summary m (N, d_h), s_0 = tanh(W_init m + b_init) (N, d_s), keys k_j = W_h h_j + b (N, T, d_a)
  // and the table W_e e_tgt(v) + b_dec (V, 3 d_s) of the decoder's embedding input.
  function prepare(p, cfg, src, N, T, keep, tag) {
    var d = cfg.d_enc,
      d_h = 2 * d,
      d_s = cfg.d_dec,
      d_a = cfg.d_att,
      d_e = cfg.d_emb,
      V = cfg.tgt_vocab,
      i,
      k;
    var H = encode(p, cfg, src, N, T, keep, tag);
    var m = buf(tag + "m", N * d_h),
      s0 = buf(tag + "s0", N * d_s);
    for (i = 0; i < N; i++) {
      for (k = 0; k < d; k++) {
        m[i * d_h + k] = H[(i * T + T - 1) * d_h + k]; // ->h_T
        m[i * d_h + d + k] = H[i * T * d_h + d + k]; // <-h_1
      }
    }
    gemm(N, d_s, d_h, m, 0, d_h, p.init_W, 0, d_h, s0, 0, d_s, false);
    for (i = 0; i < N; i++) for (k = 0; k < d_s; k++) s0[i * d_s + k] = tanh(s0[i * d_s + k] + p.init_b[k]);
    var K = null;
    if (cfg.attention) {
      K = buf(tag + "K", N * T * d_a);
      gemm(N * T, d_a, d_h, H, 0, d_h, p.att_W_h, 0, d_h, K, 0, d_a, false);
      for (i = 0; i < N * T; i++) for (k = 0; k < d_a; k++) K[i * d_a + k] += p.att_b[k];
    }
    var TE = inputTable(p, p.tgt_emb, p.dec_W, p.dec_b, V, d_e, 3 * d_s, d_e + d_h, "dec"); // W_e e_tgt(v) + b
    return { N: N, T: T, H: H, m: m, s0: s0, K: K, TE: TE };
  }

  // The read of one step for the whole batch, with the previous states (rows of S at so):
  //   q = W_s s_{t-1},  e_tj = v^T tanh(q + k_j),  alpha_t = softmax(e_t),  c_t = sum_j alpha_tj h_j
  // (the baseline: c_t = m). Writes c_t to C (row i at co + i ldc), alpha to Wt at wo (N x T), e to E at eo when
  // given, and the scorer's activations to acts at ao (N x T x d_a) when given.
  function attend(p, cfg, pre, S, so, C, co, ldc, Wt, wo, E, eo, acts, ao) {
    var N = pre.N,
      T = pre.T,
      d_s = cfg.d_dec,
      d_h = 2 * cfg.d_enc,
      d_a = cfg.d_att,
      H = pre.H,
      i,
      j,
      k;
    if (!cfg.attention) {
      for (i = 0; i < N; i++) for (k = 0; k < d_h; k++) C[co + i * ldc + k] = pre.m[i * d_h + k];
      return;
    }
    var Q = buf("att_q", N * d_a),
      e = buf("att_e", T),
      v = p.att_v,
      K = pre.K;
    gemm(N, d_a, d_s, S, so, d_s, p.att_W_s, 0, d_s, Q, 0, d_a, false); // q = W_s s_{t-1}
    for (i = 0; i < N; i++) {
      for (j = 0; j < T; j++) {
        var kb = (i * T + j) * d_a,
          qb = i * d_a,
          sum = 0;
        if (acts) {
          var ab = ao + (i * T + j) * d_a;
          for (k = 0; k < d_a; k++) {
            var a = tanh(Q[qb + k] + K[kb + k]);
            acts[ab + k] = a;
            sum += v[k] * a;
          }
        } else {
          for (k = 0; k < d_a; k++) sum += v[k] * tanh(Q[qb + k] + K[kb + k]);
        }
        e[j] = sum; // e_tj = v^T tanh(W_s s_{t-1} + W_h h_j + b)
        if (E) E[eo + i * T + j] = sum;
      }
      softmaxInto(e, 0, T, Wt, wo + i * T); // alpha_t
      var c = co + i * ldc;
      for (k = 0; k < d_h; k++) C[c + k] = 0;
      for (j = 0; j < T; j++) {
        var w = Wt[wo + i * T + j],
          hb = (i * T + j) * d_h;
        for (k = 0; k < d_h; k++) C[c + k] += w * H[hb + k]; // c_t = sum_j alpha_tj h_j
      }
    }
  }

  // The state update of one step for the whole batch: x_t = [e_tgt(y_{t-1}); c_t], s_t = GRU(s_{t-1}, x_t).
  // ys: the input tokens (row i: ys[yo + i ys_stride]); c_t rows of C at co (stride ldc); states as in gruForward.
  function update(p, cfg, pre, ys, yo, ystride, C, co, ldc, S, so, Out, oo, cache, cacheAt) {
    var N = pre.N,
      d_s = cfg.d_dec,
      d_e = cfg.d_emb,
      d_h = 2 * cfg.d_enc;
    var XP = buf("dec_xp", N * 3 * d_s);
    for (var i = 0; i < N; i++) {
      var y = ys[yo + i * ystride];
      XP.set(pre.TE.subarray(y * 3 * d_s, (y + 1) * 3 * d_s), i * 3 * d_s); // W_e e_tgt(y_{t-1}) + b
    }
    gemm(N, 3 * d_s, d_h, C, co, ldc, p.dec_W, d_e, d_e + d_h, XP, 0, 3 * d_s, true); // + W_c c_t
    gruForward(N, d_s, XP, 0, S, so, p.dec_U, Out, oo, cache, cacheAt);
  }

  // Teacher-forced pass (Seq2Seq.forward): the loss (mean over the N U target tokens of -log p) and, with keep,
  // what backward needs; without keep, weights: alpha (N, U, T), a new array (null for the baseline).
  function forward(p, cfg, batch, keep) {
    var N = batch.N,
      T = batch.T,
      U = batch.U,
      d_s = cfg.d_dec,
      d_h = 2 * cfg.d_enc,
      d_a = cfg.d_att,
      V = cfg.tgt_vocab,
      dsh = d_s + d_h;
    var pre = prepare(p, cfg, batch.src, N, T, keep, "f");
    var S = buf("f_S", (U + 1) * N * d_s); // s_0 .. s_U, time-major
    S.set(pre.s0.subarray(0, N * d_s), 0);
    var SC = buf("f_SC", U * N * dsh); // [s_t; c_t] of every step
    var WT = cfg.attention ? buf("f_W", U * N * T) : null; // alpha, time-major
    var acts = keep && cfg.attention ? buf("f_acts", U * N * T * d_a) : null;
    var cache = keep ? gruCache("fdec", U * N, d_s) : null;
    var t, i;
    for (t = 0; t < U; t++) {
      attend(p, cfg, pre, S, t * N * d_s, SC, t * N * dsh + d_s, dsh, WT, t * N * T, null, 0, acts, t * N * T * d_a);
      update(p, cfg, pre, batch.tgtIn, t, U, SC, t * N * dsh + d_s, dsh, S, t * N * d_s, S, (t + 1) * N * d_s, cache, t * N * d_s);
      for (i = 0; i < N; i++) SC.set(S.subarray((t + 1) * N * d_s + i * d_s, (t + 1) * N * d_s + (i + 1) * d_s), (t * N + i) * dsh);
    }
    var P = buf("f_P", U * N * V);
    gemm(U * N, V, dsh, SC, 0, dsh, p.out_W, 0, dsh, P, 0, V, false); // logits W_o [s_t; c_t]
    var loss = 0;
    for (t = 0; t < U; t++) {
      for (i = 0; i < N; i++) {
        var row = (t * N + i) * V;
        for (var k = 0; k < V; k++) P[row + k] += p.out_b[k];
        softmaxInto(P, row, V, P, row); // p(y_t | y_<t, x)
        loss -= Math.log(Math.max(P[row + batch.tgtOut[i * U + t]], 1e-30));
      }
    }
    var weights = null;
    if (cfg.attention && !keep) {
      weights = new Float64Array(N * U * T);
      for (t = 0; t < U; t++) for (i = 0; i < N; i++) weights.set(WT.subarray((t * N + i) * T, (t * N + i + 1) * T), (i * U + t) * T);
    }
    return { loss: loss / (N * U), weights: weights, pre: pre, batch: batch, keep: keep };
  }

  // Gradients of the mean token loss for every parameter (Seq2Seq.backward), name -> Float64Array, written into
  // g when given (zeroed first). Must follow the forward pass it belongs to (it reads that pass's working arrays).
  function backward(p, cfg, f, g) {
    var batch = f.batch,
      pre = f.pre,
      N = batch.N,
      T = batch.T,
      U = batch.U;
    var d_s = cfg.d_dec,
      d_enc = cfg.d_enc,
      d_h = 2 * d_enc,
      d_a = cfg.d_att,
      d_e = cfg.d_emb,
      V = cfg.tgt_vocab,
      d_in = d_e + d_h,
      dsh = d_s + d_h,
      UN = U * N;
    if (g) {
      Object.keys(g).forEach(function (k) {
        g[k].fill(0);
      });
    } else {
      g = zerosLike(p);
    }
    var S = buf("f_S", 0),
      SC = buf("f_SC", 0),
      P = buf("f_P", 0),
      H = pre.H;
    var WT = cfg.attention ? buf("f_W", 0) : null,
      acts = cfg.attention ? buf("f_acts", 0) : null,
      cache = gruCache("fdec", UN, d_s);
    var i, j, k, t;
    // the output layer: dL/dlogits = (p - onehot(y)) / (N U), for every token at once
    var scale = 1 / UN;
    for (t = 0; t < U; t++) {
      for (i = 0; i < N; i++) {
        var row = (t * N + i) * V;
        for (k = 0; k < V; k++) P[row + k] *= scale;
        P[row + batch.tgtOut[i * U + t]] -= scale;
      }
    }
    colsum(P, 0, V, UN, V, g.out_b);
    var PT = transpose(P, 0, V, UN, V, buf("b_PT", V * UN)),
      SCT = transpose(SC, 0, dsh, UN, dsh, buf("b_SCT", dsh * UN));
    gemm(V, dsh, UN, PT, 0, UN, SCT, 0, UN, g.out_W, 0, dsh, true); // dW_o = sum dlogits [s; c]^T
    var outWt = transpose(p.out_W, 0, dsh, V, dsh, buf("b_outWt", dsh * V));
    var DSC = buf("b_DSC", UN * dsh);
    gemm(UN, dsh, V, P, 0, V, outWt, 0, V, DSC, 0, dsh, false); // dL/d[s_t; c_t]
    // back through the steps
    var decUt = transpose(p.dec_U, 0, d_s, 3 * d_s, d_s, buf("b_decUt", 3 * d_s * d_s));
    var decWt = transpose(p.dec_W, 0, d_in, 3 * d_s, d_in, buf("b_decWt", d_in * 3 * d_s));
    var WsT = cfg.attention ? transpose(p.att_W_s, 0, d_s, d_a, d_s, buf("b_WsT", d_s * d_a)) : null;
    var DXP = buf("b_DXP", UN * 3 * d_s),
      DQ = cfg.attention ? buf("b_DQ", UN * d_a) : null;
    var dK = cfg.attention ? zeros("b_dK", N * T * d_a) : null,
      dH = zeros("b_dH", N * T * d_h),
      dm = zeros("b_dm", N * d_h);
    var dsNext = zeros("b_dsn", N * d_s),
      dsPrev = buf("b_dsp", N * d_s),
      dHn = buf("b_dhn", N * d_s),
      G = buf("b_G", N * d_h);
    var v = p.att_v;
    for (t = U - 1; t >= 0; t--) {
      for (i = 0; i < N; i++) for (k = 0; k < d_s; k++) dHn[i * d_s + k] = dsNext[i * d_s + k] + DSC[(t * N + i) * dsh + k];
      gruBackward(N, d_s, dHn, 0, cache, t * N * d_s, S, t * N * d_s, decUt, DXP, t * N * 3 * d_s, dsPrev, 0);
      // g_t = dL/dc_t: from the output layer and from the state update's input
      for (i = 0; i < N; i++) for (k = 0; k < d_h; k++) G[i * d_h + k] = DSC[(t * N + i) * dsh + d_s + k];
      gemm(N, d_h, 3 * d_s, DXP, t * N * 3 * d_s, 3 * d_s, decWt, d_e * 3 * d_s, 3 * d_s, G, 0, d_h, true);
      if (cfg.attention) {
        for (i = 0; i < N; i++) {
          var cb = (t * N + i) * dsh + d_s,
            gb = i * d_h,
            qb = (t * N + i) * d_a;
          for (k = 0; k < d_a; k++) DQ[qb + k] = 0;
          for (j = 0; j < T; j++) {
            var hb = (i * T + j) * d_h,
              alpha = WT[(t * N + i) * T + j],
              s = 0;
            for (k = 0; k < d_h; k++) {
              s += G[gb + k] * (H[hb + k] - SC[cb + k]);
              dH[hb + k] += alpha * G[gb + k]; // through c_t = sum_j alpha_tj h_j
            }
            var dE = alpha * s; // dL/de_tj = alpha_tj g_t^T (h_j - c_t)
            var ab = ((t * N + i) * T + j) * d_a,
              kb = (i * T + j) * d_a;
            for (k = 0; k < d_a; k++) {
              var a = acts[ab + k];
              g.att_v[k] += dE * a;
              var dz = dE * v[k] * (1 - a * a); // through e = v^T tanh(q + k_j)
              DQ[qb + k] += dz;
              dK[kb + k] += dz;
            }
          }
        }
        gemm(N, d_s, d_a, DQ, t * N * d_a, d_a, WsT, 0, d_a, dsPrev, 0, d_s, true); // + W_s^T dL/dq_t
      } else {
        for (i = 0; i < N * d_h; i++) dm[i] += G[i]; // the baseline reads m at every step
      }
      dsNext.set(dsPrev.subarray(0, N * d_s));
    }
    // the sums over steps that do not feed the recurrence, formed once
    if (cfg.attention) {
      var DQT = transpose(DQ, 0, d_a, UN, d_a, buf("b_DQT", d_a * UN)),
        ST = transpose(S, 0, d_s, UN, d_s, buf("b_ST", d_s * UN));
      gemm(d_a, d_s, UN, DQT, 0, UN, ST, 0, UN, g.att_W_s, 0, d_s, true); // dW_s = sum dq s_{t-1}^T
      colsum(DQ, 0, d_a, UN, d_a, g.att_b);
      var dKT = transpose(dK, 0, d_a, N * T, d_a, buf("b_dKT", d_a * N * T)),
        HT = transpose(H, 0, d_h, N * T, d_h, buf("b_HT", d_h * N * T));
      gemm(d_a, d_h, N * T, dKT, 0, N * T, HT, 0, N * T, g.att_W_h, 0, d_h, true); // dW_h = sum dk_j h_j^T
      var WhT = transpose(p.att_W_h, 0, d_h, d_a, d_h, buf("b_WhT", d_h * d_a));
      gemm(N * T, d_h, d_a, dK, 0, d_a, WhT, 0, d_a, dH, 0, d_h, true); // + W_h^T dk_j
    }
    gruParamGrads(UN, d_s, DXP, S, cache.rh, g.dec_U);
    var DXPT = transpose(DXP, 0, 3 * d_s, UN, 3 * d_s, buf("b_DXPT", 3 * d_s * UN)),
      CT = transpose(SC, d_s, dsh, UN, d_h, buf("b_CT", d_h * UN));
    gemm(3 * d_s, d_h, UN, DXPT, 0, UN, CT, 0, UN, g.dec_W, d_e, d_in, true); // dW_c = sum dxp c_t^T
    var AGG = zeros("b_agg", V * 3 * d_s); // the embedding input, gathered by target word
    for (t = 0; t < U; t++) {
      for (i = 0; i < N; i++) {
        var y = batch.tgtIn[i * U + t] * 3 * d_s,
          from = (t * N + i) * 3 * d_s;
        for (k = 0; k < 3 * d_s; k++) AGG[y + k] += DXP[from + k];
      }
    }
    colsum(AGG, 0, 3 * d_s, V, 3 * d_s, g.dec_b);
    var aggT = transpose(AGG, 0, 3 * d_s, V, 3 * d_s, buf("b_aggT", 3 * d_s * V)),
      embT = transpose(p.tgt_emb, 0, d_e, V, d_e, buf("b_embT", d_e * V));
    gemm(3 * d_s, d_e, V, aggT, 0, V, embT, 0, V, g.dec_W, 0, d_in, true); // dW_e = sum dxp e_tgt^T
    gemm(V, d_e, 3 * d_s, AGG, 0, 3 * d_s, decWt, 0, 3 * d_s, g.tgt_emb, 0, d_e, true); // d e_tgt = W_e^T dxp
    // s_0 = tanh(W_init m + b_init)
    var dPre = buf("b_dpre", N * d_s);
    for (i = 0; i < N * d_s; i++) dPre[i] = dsNext[i] * (1 - S[i] * S[i]);
    var dPreT = transpose(dPre, 0, d_s, N, d_s, buf("b_dpreT", d_s * N)),
      mT = transpose(pre.m, 0, d_h, N, d_h, buf("b_mT", d_h * N));
    gemm(d_s, d_h, N, dPreT, 0, N, mT, 0, N, g.init_W, 0, d_h, true);
    colsum(dPre, 0, d_s, N, d_s, g.init_b);
    var initWt = transpose(p.init_W, 0, d_h, d_s, d_h, buf("b_initWt", d_h * d_s));
    gemm(N, d_h, d_s, dPre, 0, d_s, initWt, 0, d_s, dm, 0, d_h, true);
    for (i = 0; i < N; i++) {
      for (k = 0; k < d_enc; k++) {
        dH[(i * T + T - 1) * d_h + k] += dm[i * d_h + k]; // m = [->h_T; <-h_1]
        dH[i * T * d_h + d_enc + k] += dm[i * d_h + d_enc + k];
      }
    }
    encodeBackward(p, cfg, batch.src, N, T, dH, g, "f");
    return g;
  }

  function lossAndGrads(p, cfg, batch, g) {
    var f = forward(p, cfg, batch, true);
    return { loss: f.loss, grads: backward(p, cfg, f, g) };
  }

  // Greedy decoding of sentences src (N, T) (Seq2Seq.greedy) from the start symbol bos: tokens (N, maxLen) and
  // weights (N, maxLen, T) or null. With trace (N = 1), every quantity of every step, as Seq2Seq.greedy_trace.
  function greedy(p, cfg, src, N, T, maxLen, trace, bos) {
    maxLen = maxLen || T + 1;
    var d_s = cfg.d_dec,
      d_h = 2 * cfg.d_enc,
      V = cfg.tgt_vocab,
      dsh = d_s + d_h;
    var pre = prepare(p, cfg, src, N, T, false, "g");
    var tokens = new Int32Array(N * maxLen);
    var weights = cfg.attention ? new Float64Array(N * maxLen * T) : null;
    var S = buf("g_S", 2 * N * d_s),
      SC = buf("g_SC", N * dsh),
      Wt = buf("g_W", N * T),
      E = trace ? buf("g_E", N * T) : null,
      L = buf("g_L", N * V);
    var ys = new Int32Array(N).fill(bos);
    S.set(pre.s0.subarray(0, N * d_s), 0);
    var tr = null,
      i,
      j;
    if (trace) {
      tr = { y_prev: [], s_prev: [], scores: cfg.attention ? [] : null, weights: cfg.attention ? [] : null, context: [], state: [], probs: [], tokens: [], annotations: [] };
      for (j = 0; j < T; j++) tr.annotations.push(Array.from(pre.H.subarray(j * d_h, (j + 1) * d_h)));
    }
    for (var t = 0; t < maxLen; t++) {
      var cur = (t % 2) * N * d_s,
        next = ((t + 1) % 2) * N * d_s;
      attend(p, cfg, pre, S, cur, SC, d_s, dsh, Wt, 0, E, 0, null, 0);
      update(p, cfg, pre, ys, 0, 1, SC, d_s, dsh, S, cur, S, next, null, 0);
      for (i = 0; i < N; i++) SC.set(S.subarray(next + i * d_s, next + (i + 1) * d_s), i * dsh);
      gemm(N, V, dsh, SC, 0, dsh, p.out_W, 0, dsh, L, 0, V, false);
      for (i = 0; i < N; i++) {
        var best = 0;
        for (var k = 0; k < V; k++) {
          L[i * V + k] += p.out_b[k];
          if (L[i * V + k] > L[i * V + best]) best = k;
        }
        if (tr) {
          var probs = new Float64Array(V);
          softmaxInto(L, i * V, V, probs, 0);
          tr.y_prev.push(ys[i]);
          tr.s_prev.push(Array.from(S.subarray(cur, cur + d_s)));
          if (cfg.attention) {
            tr.scores.push(Array.from(E.subarray(0, T)));
            tr.weights.push(Array.from(Wt.subarray(0, T)));
          }
          tr.context.push(Array.from(SC.subarray(d_s, dsh)));
          tr.state.push(Array.from(S.subarray(next, next + d_s)));
          tr.probs.push(Array.from(probs));
          tr.tokens.push(best);
        }
        tokens[i * maxLen + t] = best;
        ys[i] = best;
        if (weights) weights.set(Wt.subarray(i * T, (i + 1) * T), (i * maxLen + t) * T);
      }
    }
    return { tokens: tokens, weights: weights, trace: tr, maxLen: maxLen };
  }

  // Teacher-forced weights (U, T) of one pair: what the model reads for each reference word (the snapshots').
  function teacherWeights(p, cfg, G, pair) {
    return forward(p, cfg, stack(G, [pair]), false).weights;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Training (train.learning_rate, clip_global_norm, Adam)

  function learningRate(tc, step) {
    if (step < tc.warmup_steps) return (tc.lr * (step + 1)) / tc.warmup_steps;
    var frac = (step - tc.warmup_steps) / Math.max(tc.steps - 1 - tc.warmup_steps, 1);
    return tc.lr * Math.pow(tc.lr_end / tc.lr, frac);
  }

  // Rescale every gradient by the same factor so that their joint L2 norm is at most maxNorm; return the norm.
  function clipGlobalNorm(grads, maxNorm) {
    var total = 0;
    Object.keys(grads).forEach(function (k) {
      var a = grads[k];
      for (var i = 0; i < a.length; i++) total += a[i] * a[i];
    });
    var norm = Math.sqrt(total);
    if (norm > maxNorm) {
      var f = maxNorm / norm;
      Object.keys(grads).forEach(function (k) {
        var a = grads[k];
        for (var i = 0; i < a.length; i++) a[i] *= f;
      });
    }
    return norm;
  }

  function Adam(params, beta1, beta2, eps) {
    this.m = zerosLike(params);
    this.v = zerosLike(params);
    this.beta1 = beta1;
    this.beta2 = beta2;
    this.eps = eps;
    this.t = 0;
  }
  // One update in place: the bias corrections folded into the step size, as train.Adam.update.
  Adam.prototype.update = function (params, grads, lr) {
    this.t += 1;
    var b1 = this.beta1,
      b2 = this.beta2,
      eps = this.eps;
    var step = (lr * Math.sqrt(1 - Math.pow(b2, this.t))) / (1 - Math.pow(b1, this.t));
    var self = this;
    Object.keys(params).forEach(function (k) {
      var p = params[k],
        m = self.m[k],
        v = self.v[k],
        g = grads[k];
      for (var i = 0; i < p.length; i++) {
        m[i] = m[i] * b1 + (1 - b1) * g[i];
        v[i] = v[i] * b2 + (1 - b2) * g[i] * g[i];
        p[i] -= (step * m[i]) / (Math.sqrt(v[i]) + eps);
      }
    });
  };

  // A training run, one step at a time (train.train): trainer.step() takes one optimiser step.
  function Trainer(G, cfg, tc, splits) {
    this.G = G;
    this.cfg = cfg;
    this.tc = tc;
    this.splits = splits;
    this.rng = new Rng(tc.seed);
    this.params = initParams(cfg, this.rng);
    this.opt = new Adam(this.params, tc.beta1, tc.beta2, tc.adam_eps);
    this.grads = zerosLike(this.params); // reused at every step
    this.queue = [];
    this.steps = 0;
    this.losses = [];
  }
  Trainer.prototype.step = function () {
    if (!this.queue.length) this.queue = lengthBatches(this.G, this.splits.train, this.tc.batch_size, this.rng).reverse();
    var r = lossAndGrads(this.params, this.cfg, this.queue.pop(), this.grads);
    clipGlobalNorm(r.grads, this.tc.clip_norm);
    this.opt.update(this.params, r.grads, learningRate(this.tc, this.steps));
    this.steps += 1;
    this.losses.push(r.loss);
    return r.loss;
  };

  // ---------------------------------------------------------------------------------------------------------
  // Evaluation (train.evaluate): counts per source length of greedy tokens, exact sentences and, with
  // alignment, teacher-forced arg-max weights on the true source position.

  function evaluate(p, cfg, G, pairs, alignment, batchSize) {
    var per = new Map();
    lengthBatches(G, pairs, batchSize || 256, null).forEach(function (b) {
      var r = greedy(p, cfg, b.src, b.N, b.T, b.U, false, G.bos_id);
      var c = per.get(b.T) || { sentences: 0, tokens: 0, tokens_right: 0, exact_right: 0, align_right: 0 };
      for (var n = 0; n < b.N; n++) {
        var ended = false,
          all = true;
        for (var t = 0; t < b.U; t++) {
          var tok = ended ? -1 : r.tokens[n * b.U + t];
          if (r.tokens[n * b.U + t] === G.eos_id) ended = true;
          var ok = tok === b.tgtOut[n * b.U + t];
          c.tokens_right += ok ? 1 : 0;
          all = all && ok;
        }
        c.tokens += b.U;
        c.exact_right += all ? 1 : 0;
        c.sentences += 1;
      }
      if (alignment && cfg.attention) {
        var f = forward(p, cfg, b, false);
        for (var m = 0; m < b.N; m++) {
          for (var i = 0; i < b.T; i++) {
            var base = (m * b.U + i) * b.T,
              best = 0;
            for (var j = 1; j < b.T; j++) if (f.weights[base + j] > f.weights[base + best]) best = j;
            if (best === b.align[m * b.T + i]) c.align_right += 1;
          }
        }
      }
      per.set(b.T, c);
    });
    var lengths = Array.from(per.keys()).sort(function (a, b) {
      return a - b;
    });
    var out = { lengths: lengths };
    ["sentences", "tokens", "tokens_right", "exact_right", "align_right"].forEach(function (k) {
      out[k] = lengths.map(function (T) {
        return per.get(T)[k];
      });
    });
    return out;
  }

  // Shares of an evaluation for source lengths in [lo, hi]: {token, exact, alignment, sentences}.
  function shares(ev, lo, hi) {
    var s = { sentences: 0, tokens: 0, tokens_right: 0, exact_right: 0, align_right: 0, words: 0 };
    ev.lengths.forEach(function (T, i) {
      if (T < (lo || 1) || T > (hi || 1e9)) return;
      s.sentences += ev.sentences[i];
      s.tokens += ev.tokens[i];
      s.tokens_right += ev.tokens_right[i];
      s.exact_right += ev.exact_right[i];
      s.align_right += ev.align_right[i];
      s.words += T * ev.sentences[i];
    });
    return {
      sentences: s.sentences,
      token: s.tokens ? s.tokens_right / s.tokens : NaN,
      exact: s.sentences ? s.exact_right / s.sentences : NaN,
      alignment: s.words ? s.align_right / s.words : NaN,
    };
  }

  return {
    Rng: Rng,
    CLASSES: CLASSES,
    END: END,
    sampleSentence: sampleSentence,
    makeSplits: makeSplits,
    encodePair: encodePair,
    stack: stack,
    lengthBatches: lengthBatches,
    parse: parse,
    nextClasses: nextClasses,
    shapes: shapes,
    initParams: initParams,
    decodeParams: decodeParams,
    freeze: freeze,
    forward: forward,
    backward: backward,
    lossAndGrads: lossAndGrads,
    greedy: greedy,
    teacherWeights: teacherWeights,
    learningRate: learningRate,
    clipGlobalNorm: clipGlobalNorm,
    Adam: Adam,
    Trainer: Trainer,
    evaluate: evaluate,
    shares: shares,
  };
});
