  // A score added end to end (tests/site/added_score.py): the scaled general score e_tj = s^T k_j with keys
  // k_j = W_a h_j / sqrt(d_s), the twin of added_score.ScaledScore. The tests put these lines where a contributor
  // writes them, inside aeLabScorers in a copy of lab/scorers.js, after lab.scorers is made.
  function ScaledScore(cfg) {
    GeneralScore.call(this, cfg);
  }
  ScaledScore.prototype = Object.create(GeneralScore.prototype);
  ScaledScore.prototype.name = "scaled";

  ScaledScore.prototype.keys = function (p, H, N, T, tag) {
    var Kk = GeneralScore.prototype.keys.call(this, p, H, N, T, tag),
      c = 1 / Math.sqrt(this.d_s);
    for (var i = 0; i < N * T * this.d_s; i++) Kk[i] *= c; // k_j = W_a h_j / sqrt(d_s)
    return Kk;
  };

  // dL/dk_j through the scale, then the general score's sums: dW_a = sum_j dk_j h_j^T / sqrt(d_s), dL/dh_j += ...
  ScaledScore.prototype.sumsBackward = function (p, steps, source, dSource, grad, g) {
    var c = 1 / Math.sqrt(this.d_s);
    for (var i = 0; i < steps.N * steps.T * this.d_s; i++) dSource.K[i] *= c;
    GeneralScore.prototype.sumsBackward.call(this, p, steps, source, dSource, grad, g);
  };

  lab.scorers.ScaledScore = ScaledScore;
  lab.scorers.SCORES.scaled = ScaledScore;
