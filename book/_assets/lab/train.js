// lab/train.js: training and evaluation, the twin of src/attention_core/models/train.py: the learning-rate
// schedule, the clipping of the global gradient norm, Adam, a run one step at a time, and the evaluation counts.
// A part of the laboratory's mathematics: ../ae-lab-math.js puts the parts together.
function aeLabTrain(lab) {
  "use strict";
  var data = lab.data,
    K = lab.kernels,
    model = lab.seq2seq,
    zerosLike = K.zerosLike;


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
    this.rng = new data.Rng(tc.seed);
    this.params = model.initParams(cfg, this.rng);
    this.opt = new Adam(this.params, tc.beta1, tc.beta2, tc.adam_eps);
    this.grads = zerosLike(this.params); // reused at every step
    this.queue = [];
    this.steps = 0;
    this.losses = [];
  }
  Trainer.prototype.step = function () {
    if (!this.queue.length) this.queue = data.lengthBatches(this.G, this.splits.train, this.tc.batch_size, this.rng).reverse();
    var r = model.lossAndGrads(this.params, this.cfg, this.queue.pop(), this.grads);
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
    data.lengthBatches(G, pairs, batchSize || 256, null).forEach(function (b) {
      var r = model.greedy(p, cfg, b.src, b.N, b.T, b.U, false, G.bos_id);
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
      if (alignment && model.aligns(cfg)) { // as train.evaluate: only where the weights name source positions
        var f = model.forward(p, cfg, b, false);
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

  lab.train = {
    learningRate: learningRate,
    clipGlobalNorm: clipGlobalNorm,
    Adam: Adam,
    Trainer: Trainer,
    evaluate: evaluate,
    shares: shares,
  };
}

if (typeof module === "object" && module.exports) module.exports = aeLabTrain;
