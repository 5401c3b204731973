"""The laboratory's matrix product in WebAssembly (``book/_assets/lab/gemm.wat``, run by ``lab/kernels.js``'s
``gemmWasm``) against the product in JavaScript (``gemmScalar``), under Node: the same numbers bit for bit, on
every M and N from 1 to 9 with K of 1, 2, 3, 8 and 9, on the training step's shapes, with row strides and offsets,
stored and added. Both sum each output from 0 along k in order, one multiplication and one addition at a time, so
anything but equality is a bug. Negative controls: a product whose k runs backwards (the same sum in another
order) and a gemm.wat whose last accumulator of the 4 x 4 block reads the wrong pair of columns are both caught.

The bytes are the committed part ``lab/wasm.js`` (``attention_workshop.gemm_wasm``), so these tests need Node but not
wabt, except the negative control that compiles a spoiled gemm.wat (skipped without wabt, with its reason, except
under ``CI=true``). The parity of the whole laboratory with the package runs with these products too
(``test_lab_parts.py`` and ``test_lab_math.py``)."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess

import pytest

from attention_workshop.gemm_wasm import GEMM_WAT, WABT, compile_wat
from tests.helpers import ROOT, gemm_wasm

KERNELS = ROOT / "book" / "_assets" / "lab" / "kernels.js"

# Shapes (M, N, K): every small one, where the blocks of 4 rows and 4 columns have remainders, and the step's.
SMALL = [(m, n, k) for m in range(1, 10) for n in range(1, 10) for k in (1, 2, 3, 8, 9)]
STEP = [(32, 64, 64), (32, 192, 64), (32, 64, 192), (32, 32, 32), (38, 96, 32), (40, 192, 32), (192, 64, 832)]

DRIVER = ROOT / "tests" / "site" / "lab" / "kernels_node.js"  # runs every product both ways (its header says how)


def compare(mode: str, wasm: str | None, shapes: list) -> dict:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but no node found; .ci/run installs nodejs")
        pytest.skip("Node.js is not installed (it is needed for the book build too)")
    job = {"kernels": str(KERNELS), "wasm": wasm, "mode": mode, "shapes": shapes}
    run = subprocess.run([node, str(DRIVER)], input=json.dumps(job), capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def test_the_product_in_webassembly_gives_the_javascript_products_bits():
    got = compare("wasm", gemm_wasm(), SMALL + STEP)
    assert got["engine"] == "webassembly"
    assert got["products"] == 4 * len(SMALL + STEP)
    assert got["differ"] == 0, f"{got['differ']} of {got['outputs']} outputs differ"


def test_the_comparison_sees_the_same_sum_in_another_order():
    got = compare("reversed", None, STEP)
    assert got["engine"] == "javascript"  # kernels.js alone, without the part lab/wasm.js: its products in JavaScript
    assert got["differ"] > 0


def test_a_wrong_webassembly_product_is_caught():
    if not (WABT / "index.js").exists():
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but wabt is missing (make assets fetches it)")
        pytest.skip("wabt is missing (make assets fetches it): the spoiled gemm.wat cannot be compiled")
    text = GEMM_WAT.read_text(encoding="utf-8")
    right = "(local.set $c31 (f64x2.add (local.get $c31) (f64x2.mul (local.get $x3) (local.get $w1))))"
    assert text.count(right) == 1
    wrong = compile_wat(text.replace(right, right.replace("$w1", "$w0")))
    got = compare("wasm", base64.b64encode(wrong).decode("ascii"), STEP)
    assert got["engine"] == "webassembly"
    assert got["differ"] > 0
