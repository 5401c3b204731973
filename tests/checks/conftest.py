"""What the self-checks' tests share: every test starts as a reader's first attempt."""

from __future__ import annotations

import pytest

from attention_core.checks.base import ATTEMPTS


@pytest.fixture(autouse=True)
def _first_attempt():
    """The checks count wrong answers in a row per check (attention_core.checks.base.ATTEMPTS), for the whole
    process; each test starts from none, so that the verdict it reads is the one a first wrong answer gets."""
    ATTEMPTS.clear()
    yield
    ATTEMPTS.clear()
