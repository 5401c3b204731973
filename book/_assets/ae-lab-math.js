// The mathematics of the laboratory (lessons 07 to 09): a second implementation of attention_core.models in plain
// JavaScript, for the website (a Web Worker trains with it; the page decodes and steps with it) and for Node
// (tests/site/test_lab_math.py checks it against the numpy package, part by part and end to end).
//
// It is made of parts, one file each in lab/, each the twin of one module of src/attention_core/models/ (the
// same classes and functions, in the same order; each file says which):
//   lab/wasm.js      kernels.js's matrix product in WebAssembly, lab/gemm.wat compiled (generated, base64)
//   lab/kernels.js   the products, softmax and working arrays the parts share (numpy, attention_core's kernels)
//   lab/gemm.wat     not a part: the text lab/wasm.js is compiled from (python -m attention_workshop.gemm_wasm)
//   lab/data.js      the toy language, its sampler, parser and batches          models/data.py
//   lab/gru.js       the GRU cell                                               models/gru.py
//   lab/encoder.js   the bidirectional encoder                                  models/encoder.py
//   lab/positions.js     sinusoidal, learned or no positions                    models/positions.py
//   lab/attention_layer.js   one self-attention layer                           models/attention_layer.py
//   lab/attention_encoder.js the encoder without recurrence                     models/attention_encoder.py
//   lab/scorers.js   AdditiveScore, GeneralScore, FixedSummary                  models/scorers.py
//   lab/orders.js    BahdanauOrder, LuongOrder                                  models/orders.py
//   lab/seq2seq.js   the model: parameters, one decoder loop, forward, backward models/seq2seq.py
//   lab/train.js     schedule, clipping, Adam, a run, evaluation                models/train.py
// Each part is one function, part(lab), named for its file (lab/attention_layer.js defines aeLabAttentionLayer),
// that adds its names to lab (lab.gru, lab.attention_layer, lab.scorers, ...) and calls the others through lab when
// it runs. This file puts them together (aeLabMath) and gives the page its functions.
// The parts are plain functions that close over nothing, so a Worker is started from their source text (no
// file to fetch: it works from file:// too).
var AE_LAB_PARTS = ["wasm", "kernels", "data", "gru", "encoder", "positions", "attention_layer", "attention_encoder", "scorers", "orders", "seq2seq", "train"]; // in this order

function aeLabMath(parts) {
  "use strict";
  var lab = {};
  parts.forEach(function (part) {
    part(lab);
  });
  var api = { parts: lab };
  [lab.data, lab.seq2seq, lab.train].forEach(function (names) {
    Object.keys(names).forEach(function (k) {
      api[k] = names[k];
    });
  });
  // The target languages (data.LANGUAGES). lab/data.js samples and parses lesson 07's ("svo"); a grammar G with
  // G.language "verb_final" gets the same source sentences (the same random numbers) with the target in the
  // verb-final order of data._phrase_order: NP_subj NP_obj (PREP NP)_k .. (PREP NP)_1 VERB.
  var D = lab.data;
  api.LANGUAGES = ["svo", "verb_final"];
  // A sentence pair {src, tgt, align} (words) of "svo" in the target order of G.language.
  function inLanguage(G, pair) {
    if (!G.language || G.language === "svo") return pair;
    var classOf = {},
      translate = {};
    D.CLASSES.forEach(function (cls) {
      G.groups[cls].forEach(function (w) {
        classOf[w[0]] = cls;
        translate[w[0]] = w[1];
      });
    });
    var phrases = [],
      start = 0,
      k = 0;
    while (start < pair.src.length) {
      var end = start + 1; // a phrase: an NP (DET ADJ* NOUN), a verb or a preposition; svo keeps each in place
      if (classOf[pair.src[start]] === "determiner") while (classOf[pair.src[end - 1]] !== "noun") end++;
      phrases.push(pair.align.slice(k, k + end - start));
      k += end - start;
      start = end;
    }
    var order = [0, 2];
    for (var q = phrases.length - 2; q >= 3; q -= 2) order.push(q, q + 1); // the (PREP, NP) pairs, last first
    order.push(1);
    var align = [];
    order.forEach(function (q) {
      align.push.apply(align, phrases[q]);
    });
    return {
      src: pair.src.slice(),
      tgt: align.map(function (j) {
        return translate[pair.src[j]];
      }),
      align: align,
    };
  }
  function reencode(G, p) {
    return D.encodePair(G, inLanguage(G, { src: p.words.src, tgt: p.words.tgt, align: Array.from(p.words.align) }));
  }
  api.inLanguage = inLanguage;
  api.sampleSentence = function (G, rng) {
    return inLanguage(G, D.sampleSentence(G, rng));
  };
  api.makeSplits = function (G, seed, nTrain, nValid, nTest) {
    var s = D.makeSplits(G, seed, nTrain, nValid, nTest);
    if (!G.language || G.language === "svo") return s;
    return {
      test: s.test.map(function (p) {
        return reencode(G, p);
      }),
      valid: s.valid.map(function (p) {
        return reencode(G, p);
      }),
      train: s.train.map(function (p) {
        return reencode(G, p);
      }),
    };
  };
  api.parse = function (G, words) {
    var r = D.parse(G, words);
    return r.pair ? { pair: reencode(G, r.pair) } : r;
  };
  return api;
}

(function (scope) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = { PARTS: AE_LAB_PARTS, assemble: aeLabMath }; // Node: require each lab/<part>.js, then assemble
    return;
  }
  // The page: ae-lab.js loads this file, then the parts (lab/<part>.js: lab/gru.js defines aeLabGru,
  // lab/attention_layer.js aeLabAttentionLayer, ...), then calls AELabMath.assemble(), which puts them together and
  // makes AELabMath the model's functions.
  scope.AELabMath = {
    PARTS: AE_LAB_PARTS,
    assemble: function () {
      var functions = AE_LAB_PARTS.map(function (name) {
        return scope["aeLab" + name.replace(/(^|_)([a-z])/g, function (all, sep, c) { return c.toUpperCase(); })];
      });
      if (functions.some(function (f) { return typeof f !== "function"; })) return null; // a part did not load
      var api = aeLabMath(functions);
      // The source of a script that makes the same functions as M (for a Worker, which runs its own copy).
      api.source = function () {
        var names = functions.map(function (f) { return f.name; });
        return functions.map(String).join("\n") + "\nvar M = (" + aeLabMath.toString() + ")([" + names.join(", ") + "]);\n";
      };
      scope.AELabMath = api;
      return api;
    },
  };
})(typeof self !== "undefined" ? self : this);
