// lab/positions.js: where each word stands, for an encoder without recurrence, the twin of
// src/attention_core/models/positions.py (same classes, same methods, in the same order). A self-attention layer
// treats its inputs as a set; the encoder is told the order by adding a vector that depends on the position alone:
//   z_j = W_x e_src(x_j) + b_x + P_j
//   "sinusoidal"  P_{j,2i} = sin((j-1) / 10000^{2i/d}),  P_{j,2i+1} = cos((j-1) / 10000^{2i/d})   fixed
//   "learned"     P_j = pos_emb[j-1], a row of a trained table (MAX_LEN, d)
//   "none"        P_j = 0: the encoder sees the words as a bag
// Each part holds sizes, never parameters (they live in the model's p). forward gives P (T x d, row-major) or
// null when nothing is added; backward adds its parameters' gradients into g from dL/dP (T x d, the batch summed).
// A part of the laboratory's mathematics: ../ae-lab-math.js puts the parts together.
function aeLabPositions(lab) {
  "use strict";
  var MAX_LEN = 30; // data.MAX_LEN: the learned table's rows (tests/site/test_lab_parts.py compares its shape)

  // positions.sinusoidal: the fixed table P (T x d) of Vaswani et al., made once per (T, d) and kept.
  var tables = {};
  function sinusoidal(T, d) {
    var key = T + "," + d;
    if (tables[key]) return tables[key];
    var P = new Float64Array(T * d);
    for (var c = 0; 2 * c < d; c++) {
      var rate = Math.pow(10000, -(2 * c) / d); // one frequency per pair of columns
      for (var j = 0; j < T; j++) {
        P[j * d + 2 * c] = Math.sin(j * rate);
        if (2 * c + 1 < d) P[j * d + 2 * c + 1] = Math.cos(j * rate);
      }
    }
    return (tables[key] = P);
  }

  // positions.Positions: P added to the inputs, and its gradient.
  function Positions(d) {
    this.d = d;
  }
  Positions.prototype.name = "";
  Positions.prototype.init = function () {};
  Positions.prototype.forward = function () {
    throw new Error("a Positions part defines forward");
  };
  Positions.prototype.backward = function () {};

  function part(Cls, name) {
    Cls.prototype = Object.create(Positions.prototype);
    Cls.prototype.name = name;
    return Cls;
  }

  // positions.SinusoidalPositions: the fixed sines and cosines (no parameter).
  var SinusoidalPositions = part(function SinusoidalPositions(d) {
    Positions.call(this, d);
  }, "sinusoidal");
  SinusoidalPositions.prototype.forward = function (p, T) {
    return sinusoidal(T, this.d);
  };

  // positions.LearnedPositions: one trained vector per position, pos_emb (MAX_LEN, d) drawn N(0, 1) * 0.1; a
  // sentence of T words uses the first T rows.
  var LearnedPositions = part(function LearnedPositions(d) {
    Positions.call(this, d);
  }, "learned");
  LearnedPositions.prototype.init = function (draw) {
    draw("pos_emb", [MAX_LEN, this.d], 0.1);
  };
  LearnedPositions.prototype.forward = function (p, T) {
    return p.pos_emb.subarray(0, T * this.d);
  };
  LearnedPositions.prototype.backward = function (p, dP, T, g) {
    var grad = g.pos_emb;
    for (var i = 0; i < T * this.d; i++) grad[i] += dP[i];
  };

  // positions.NoPositions: nothing added; the encoder's outputs do not depend on the order of the words.
  var NoPositions = part(function NoPositions(d) {
    Positions.call(this, d);
  }, "none");
  NoPositions.prototype.forward = function () {
    return null;
  };

  lab.positions = {
    MAX_LEN: MAX_LEN,
    sinusoidal: sinusoidal,
    Positions: Positions,
    SinusoidalPositions: SinusoidalPositions,
    LearnedPositions: LearnedPositions,
    NoPositions: NoPositions,
    POSITIONS: { sinusoidal: SinusoidalPositions, learned: LearnedPositions, none: NoPositions }, // ModelConfig.positions -> part
  };
}

if (typeof module === "object" && module.exports) module.exports = aeLabPositions;
