// lab/data.js: the toy language of lesson 07 and its batches, the twin of src/attention_core/models/data.py
// (a seeded generator, the grammar as a sampler and a parser, the splits and the batches of one source length).
// A part of the laboratory's mathematics: ../ae-lab-math.js puts the parts together.
function aeLabData(lab) {
  "use strict";

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
    // Objects without a prototype: a typed "constructor" or "__proto__" is an unknown word, not Object's own.
    var classOf = Object.create(null),
      srcId = Object.create(null),
      tgtId = Object.create(null),
      translate = Object.create(null);
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

  // A noun phrase DET ADJ* NOUN (k distinct adjectives) appended to src (words) and its target order DET NOUN
  // ADJ_k .. ADJ_1 to align (source positions). Written into the sentence's arrays, no array of its own.
  var undrawn = []; // the adjectives not drawn yet in this phrase (indices, in order)
  function nounPhrase(G, rng, src, align) {
    var k = rng.integer(G.max_adj + 1),
      left = G.groups.adjective.length,
      start = src.length,
      i;
    for (i = 0; i < left; i++) undrawn[i] = i;
    src.push(G.groups.determiner[rng.integer(G.groups.determiner.length)][0]);
    for (var a = 0; a < k; a++) {
      var r = rng.integer(left);
      src.push(G.groups.adjective[undrawn[r]][0]);
      for (i = r; i < left - 1; i++) undrawn[i] = undrawn[i + 1]; // without replacement
      left--;
    }
    src.push(G.groups.noun[rng.integer(G.groups.noun.length)][0]);
    align.push(start, start + k + 1);
    for (var b = k; b >= 1; b--) align.push(start + b);
  }

  // One sentence pair: {src: [words], tgt: [words], align: [source position of each target word]}.
  function sampleSentence(G, rng) {
    var L = language(G);
    for (;;) {
      var src = [],
        align = [];
      nounPhrase(G, rng, src, align);
      align.push(src.length);
      src.push(G.groups.verb[rng.integer(G.groups.verb.length)][0]);
      nounPhrase(G, rng, src, align);
      var pps = rng.integer(G.max_pp + 1);
      for (var i = 0; i < pps; i++) {
        align.push(src.length);
        src.push(G.groups.preposition[rng.integer(G.groups.preposition.length)][0]);
        nounPhrase(G, rng, src, align);
      }
      if (src.length <= G.max_len) {
        var tgt = new Array(align.length);
        for (var q = 0; q < align.length; q++) tgt[q] = L.translate[src[align[q]]];
        return { src: src, tgt: tgt, align: align };
      }
    }
  }

  // Small arrays of integers, cut from a larger one: an Int32Array of its own for each would cost an ArrayBuffer
  // each, 64,000 of them for the page's splits (most of the time it took to make them went to the garbage
  // collector).
  var slab = null,
    slabAt = 0;
  function ints(n) {
    if (!slab || slabAt + n > slab.length) {
      slab = new Int32Array(Math.max(65536, n));
      slabAt = 0;
    }
    slabAt += n;
    return slab.subarray(slabAt - n, slabAt);
  }

  function ids(words, table) {
    var out = ints(words.length);
    for (var i = 0; i < words.length; i++) out[i] = table[words[i]];
    return out;
  }

  // Token ids of a sentence pair: {src: Int32Array, tgt: Int32Array, align: Int32Array, words: {...}}.
  function encodePair(G, pair) {
    var L = language(G),
      align = ints(pair.align.length);
    align.set(pair.align);
    return {
      src: ids(pair.src, L.srcId),
      tgt: ids(pair.tgt, L.tgtId),
      align: align,
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

  lab.data = {
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
  };
}

if (typeof module === "object" && module.exports) module.exports = aeLabData;
