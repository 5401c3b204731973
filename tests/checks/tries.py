"""The verdict a reader sees at a given wrong answer in a row, for the self-checks' tests (see
attention_core.checks.base: the first wrong answer gets the hint, the second its detail, the third the answer)."""

from __future__ import annotations

from attention_core.checks.base import ATTEMPTS
from attention_core.lang import language


def at_try(n: int, check, *args, **kwargs):
    """``check(*args, **kwargs)`` as a reader's ``n``-th answer in a row (the count starts from none)."""
    ATTEMPTS.clear()
    for _ in range(n - 1):
        check(*args, **kwargs)
    return check(*args, **kwargs)


def in_english_and_chinese(check, *args, n: int = 1, **kwargs):
    """The verdicts at the ``n``-th answer in a row, in English and in Chinese."""
    english = at_try(n, check, *args, **kwargs)
    with language("zh"):
        chinese = at_try(n, check, *args, **kwargs)
    return english, chinese
