"""attention_core: the numpy core of *Attention, executable*.

Every number the book states is computed here. The math modules (``reading``, ``scores``, ``gradients``,
``example``) import only numpy; drawing lives in ``plots`` and interaction in ``widgets``.
"""

from .example import (
    B_EXAMPLE,
    H_EXAMPLE,
    STATE_A,
    STATE_B,
    TOKENS,
    V_EXAMPLE,
    W_H_EXAMPLE,
    W_S_EXAMPLE,
    ExampleRead,
    worked_example,
)
from .gradients import attend_backward, finite_difference, score_gradient
from .lang import get_language, language, set_language
from .reading import attend, softmax
from .scores import additive_scores, additive_scores_backward, dot_scores, general_scores

__all__ = [
    "B_EXAMPLE",
    "H_EXAMPLE",
    "STATE_A",
    "STATE_B",
    "TOKENS",
    "V_EXAMPLE",
    "W_H_EXAMPLE",
    "W_S_EXAMPLE",
    "ExampleRead",
    "additive_scores",
    "additive_scores_backward",
    "attend",
    "attend_backward",
    "dot_scores",
    "finite_difference",
    "general_scores",
    "get_language",
    "language",
    "set_language",
    "score_gradient",
    "softmax",
    "worked_example",
]
