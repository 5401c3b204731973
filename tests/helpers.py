"""What several test files share: the repository's root, the helpers that read numbers and Chinese out of text, and
the laboratory's compiled matrix product (``gemm_wasm``). One place, so the copies cannot drift."""

from __future__ import annotations

import functools
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")  # a printed number: 3, -0.5414, 1e-05
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")  # a Chinese character


def numbers(text: str) -> list[str]:
    """The numbers written in ``text``, in order, as written."""
    return NUMBER.findall(text)


def has_cjk(text: str) -> bool:
    return CJK.search(text) is not None


def reading_minutes(words: int) -> int:
    """A reading time in minutes for ``words`` words: 200 words a minute, in steps of 5 minutes, at least 5."""
    return max(5, 5 * round(words / 1000))


@functools.cache
def gemm_wasm() -> str:
    """The laboratory's matrix product, ``book/_assets/lab/gemm.wat``, compiled (base64), as the committed part
    ``lab/wasm.js`` holds it (``attention_workshop.gemm_wasm``): the Node drivers give it to the parts, so they run
    the page's products."""
    from attention_workshop.gemm_wasm import committed_base64

    return committed_base64()
