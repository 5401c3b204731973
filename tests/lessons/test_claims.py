"""The lessons' claims about the read, as tests that fail when a claim is false.

Each test names the lesson and the claim. Lesson 02's claim goes through the model's own decoder; lessons 05
and 06 are properties over many random inputs (hypothesis), not one printed example.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_core as ac

SEEDS = st.integers(0, 2**32 - 1)


def _random_scorer(rng, d_s, d_h, d_a, T):
    H = rng.normal(size=(T, d_h))
    W_s, W_h = rng.normal(size=(d_a, d_s)), rng.normal(size=(d_a, d_h))
    v, b = rng.normal(size=d_a), rng.normal(size=d_a)
    return H, W_s, W_h, v, b


# --- lesson 05: the tanh ablation, states in every direction ------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    seed=SEEDS,
    d_s=st.integers(1, 6),
    d_h=st.integers(1, 5),
    d_a=st.integers(1, 6),
    T=st.integers(2, 7),
    scale=st.floats(0.01, 30.0),
)
def test_lesson05_without_tanh_the_weights_ignore_the_state(seed, d_s, d_h, d_a, T, scale):
    """Eq. eq-linear-weights: without tanh, any change of state (any direction, any size) leaves the weights."""
    rng = np.random.default_rng(seed)
    H, W_s, W_h, v, b = _random_scorer(rng, d_s, d_h, d_a, T)
    states = scale * rng.normal(size=(12, d_s))  # 12 states in random directions of R^{d_s}
    e = ac.additive_scores(states, H, W_s, W_h, v, b, nonlinearity=None)  # (12, T)
    # the state adds one common number per state, kappa = v^T W_s s + v^T b (eq-linear-score) ...
    kappa = states @ W_s.T @ v + v @ b  # (12,)
    np.testing.assert_allclose(e - kappa[:, None], np.broadcast_to(H @ W_h.T @ v, e.shape), atol=1e-9 * (1 + scale))
    # ... so the weights are the same for every state
    w = ac.softmax(e)
    np.testing.assert_allclose(w, np.broadcast_to(w[0], w.shape), atol=1e-9)


@settings(max_examples=200, deadline=None)
@given(seed=SEEDS, d_s=st.integers(1, 6), d_h=st.integers(1, 5), d_a=st.integers(1, 6), T=st.integers(2, 7))
def test_lesson05_with_tanh_the_state_moves_the_weights(seed, d_s, d_h, d_a, T):
    """The contrast: with tanh, two states in random directions give different weights."""
    rng = np.random.default_rng(seed)
    H, W_s, W_h, v, b = _random_scorer(rng, d_s, d_h, d_a, T)
    states = rng.normal(size=(2, d_s))
    w = ac.softmax(ac.additive_scores(states, H, W_s, W_h, v, b))
    assert np.abs(w[1] - w[0]).max() > 1e-12


# --- lesson 05: multiplicative scores, a change of state changes the weights -----------------------------------


@settings(max_examples=200, deadline=None)
@given(
    seed=SEEDS,
    d=st.integers(1, 6),
    d_h=st.integers(1, 6),
    T=st.integers(2, 7),
    family=st.sampled_from(["dot", "general"]),
)
def test_lesson05_multiplicative_scores_move_each_position_by_its_own_amount(seed, d, d_h, T, family):
    """Eq. eq-bilinear-change: e_j(s') - e_j(s) = (s' - s)^T W h_j; with distinct h_j the weights move."""
    rng = np.random.default_rng(seed)
    if family == "dot":
        d_h = d
    H = rng.normal(size=(T, d_h))
    W = np.eye(d) if family == "dot" else rng.normal(size=(d, d_h))
    s, s_new = rng.normal(size=d), rng.normal(size=d)

    def scores(state):
        return ac.dot_scores(state, H) if family == "dot" else ac.general_scores(state, H, W)

    change = scores(s_new) - scores(s)  # (T,)
    np.testing.assert_allclose(change, H @ W.T @ (s_new - s), atol=1e-10)
    # random states and annotations make the changes differ between positions, which softmax cannot cancel
    assert np.ptp(change) > 1e-9
    moved = np.abs(ac.softmax(scores(s_new)) - ac.softmax(scores(s))).max()
    assert moved > 1e-12


def test_lesson05_the_only_unmoved_changes_are_common_shifts():
    """The converse, so the claim is sharp: a change of state with (s' - s)^T W h_j equal for all j moves nothing."""
    rng = np.random.default_rng(0)
    H, W = rng.normal(size=(4, 3)), rng.normal(size=(3, 3))
    s = rng.normal(size=3)
    # choose a change u with u^T W (h_j - h_1) = 0 for j = 2, 3 (two constraints in R^3): the null space
    A = (H[1:3] - H[0]) @ W.T  # (2, 3)
    u = np.linalg.svd(A)[2][-1]  # (3,) spans the null space of A
    H4 = H.copy()
    H4[3] = H[0] + (H[1] - H[0]) + (H[2] - H[0])  # keep h_4 in the same affine span
    before, after = ac.softmax(ac.general_scores(s, H4, W)), ac.softmax(ac.general_scores(s + 2 * u, H4, W))
    np.testing.assert_allclose(before, after, atol=1e-12)


# --- lesson 06: the weights vary continuously with s --------------------------------------------------------

# For the worked example e_j(s) = tanh(s + h_j1) - tanh(s + h_j2), so |de_j/ds| <= 1 and
# d alpha_j / ds = alpha_j (e_j' - sum_k alpha_k e_k') has absolute value at most 2 alpha_j <= 2.
LIPSCHITZ = 2.0


def test_lesson06_weights_change_little_between_neighbouring_states():
    grid = np.linspace(-4.0, 4.0, 8001)  # step 0.001
    w = ac.worked_example(grid).weights  # (8001, 3)
    steps = np.abs(np.diff(w, axis=0)).max(axis=1)  # (8000,)
    assert steps.max() <= LIPSCHITZ * (grid[1] - grid[0])
    c = ac.worked_example(grid).context  # (8001, 2): the read is continuous too
    assert np.abs(np.diff(c, axis=0)).max() <= LIPSCHITZ * 3 * 2 * (grid[1] - grid[0])


@settings(max_examples=300, deadline=None)
@given(s=st.floats(-10, 10), delta=st.floats(-1e-2, 1e-2))
def test_lesson06_small_change_of_s_small_change_of_weights(s, delta):
    w0, w1 = ac.worked_example(s).weights, ac.worked_example(s + delta).weights
    assert np.abs(w1 - w0).max() <= LIPSCHITZ * abs(delta) + 1e-15


def test_lesson06_bound_is_not_vacuous():
    """The measured slope is a sizeable fraction of the bound, so the test would catch a jump."""
    grid = np.linspace(-4.0, 4.0, 8001)
    slope = np.abs(np.diff(ac.worked_example(grid).weights, axis=0)).max() / (grid[1] - grid[0])
    assert 0.1 < slope <= LIPSCHITZ


# --- lesson 06: identical source vectors give identical reads ----------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    seed=SEEDS,
    T=st.integers(1, 9),
    d_h=st.integers(1, 5),
    spread=st.floats(0.0, 50.0),
)
def test_lesson06_identical_annotations_give_the_same_read_whatever_the_weights(seed, T, d_h, spread):
    rng = np.random.default_rng(seed)
    h = rng.normal(size=d_h)
    H_same = np.tile(h, (T, 1))  # (T, d_h): T copies of one vector
    scores = spread * rng.normal(size=(5, T))  # five very different sets of weights
    weights, context = ac.attend(scores, H_same)
    np.testing.assert_allclose(context, np.broadcast_to(h, context.shape), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("s", [-1.0, 0.0, 1.0, 2.5])
def test_lesson06_identical_annotations_through_the_additive_scorer(s):
    H_same = np.tile([[1.0, -1.0]], (3, 1))
    e = ac.additive_scores(np.array([s]), H_same, ac.W_S_EXAMPLE, ac.W_H_EXAMPLE, ac.V_EXAMPLE, ac.B_EXAMPLE)
    _, c = ac.attend(e, H_same)
    np.testing.assert_allclose(c, H_same[0])


# --- lesson 02: the fixed summary is what every decoder step receives --------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lesson02_baseline_decoder_reads_the_summary_at_every_step(seed):
    from attention_core.models import data
    from attention_core.models.encoder import encode
    from attention_core.models.seq2seq import ModelConfig, Seq2Seq

    pairs = data.make_splits(seed=seed, n_train=1, n_valid=1, n_test=60).test
    for batch in data.length_batches(pairs, batch_size=8)[:4]:  # several source lengths
        for attention in (False, True):
            model = Seq2Seq(ModelConfig(attention=attention, d_emb=8, d_enc=8, d_dec=16, d_att=16), seed=seed)
            weights, contexts = model.decoder_reads(batch)  # (N, U, d_h)
            H, _ = encode(model.params, batch.src)
            m = model.encoder.summary(H)[:, None, :]  # (N, 1, d_h)
            assert contexts.shape[1] == batch.tgt_in.shape[1]  # one context per teacher-forced step
            if attention:
                assert weights is not None and np.abs(contexts - contexts[:, :1]).max() > 0
            else:
                assert weights is None
                np.testing.assert_array_equal(contexts, np.broadcast_to(m, contexts.shape))
