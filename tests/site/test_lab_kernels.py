"""The laboratory's matrix product in WebAssembly (``book/_assets/lab/gemm.wat``, run by ``lab/kernels.js``'s
``gemmWasm``) against the product in JavaScript (``gemmScalar``), under Node: the same numbers bit for bit, on
every M and N from 1 to 9 with K of 1, 2, 3, 8 and 9, on the training step's shapes, with row strides and offsets,
stored and added. Both sum each output from 0 along k in order, one multiplication and one addition at a time, so
anything but equality is a bug. Negative controls: a product whose k runs backwards (the same sum in another
order) and a gemm.wat whose last accumulator of the 4 x 4 block reads the wrong pair of columns are both caught.

The parity of the whole laboratory with the package runs with these products too (``test_lab_parts.py`` and
``test_lab_math.py`` give the parts the compiled bytes, as the served ``lab/kernels.js`` has them)."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess

import pytest

from attention_workshop.ae_site import GEMM_WAT, compile_wat
from tests.helpers import ROOT, gemm_wasm

KERNELS = ROOT / "book" / "_assets" / "lab" / "kernels.js"

# Shapes (M, N, K): every small one, where the blocks of 4 rows and 4 columns have remainders, and the step's.
SMALL = [(m, n, k) for m in range(1, 10) for n in range(1, 10) for k in (1, 2, 3, 8, 9)]
STEP = [(32, 64, 64), (32, 192, 64), (32, 64, 192), (32, 32, 32), (38, 96, 32), (40, 192, 32), (192, 64, 832)]

# Runs every product both ways on random numbers (some of them -0 and exact zeros) and counts the outputs whose
# bits differ. `mode` "wasm" compares gemmWasm with gemmScalar; "reversed" compares gemmScalar with a JavaScript
# product whose k runs backwards (the control: the comparison must see a change of order).
DRIVER = r"""
"use strict";
const job = JSON.parse(require("fs").readFileSync(0, "utf8"));
const lab = {};
require(job.kernels)(lab);
const K = lab.kernels;
if (job.wasm && !K.useWasm(job.wasm)) throw new Error("Node did not compile the bytes");
let seed = 1;
function rand() {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  const u = seed / 2147483648;
  return u < 0.02 ? -0 : u < 0.04 ? 0 : 4 * u - 2;
}
function fill(n) {
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = rand();
  return a;
}
function reversed(M, N, Kk, A, ao, lda, B, bo, ldb, C, co, ldc, add) {
  for (let m = 0; m < M; m++)
    for (let n = 0; n < N; n++) {
      let s = 0;
      for (let k = Kk - 1; k >= 0; k--) s += A[ao + m * lda + k] * B[bo + n * ldb + k];
      C[co + m * ldc + n] = add ? C[co + m * ldc + n] + s : s;
    }
}
const other = job.mode === "wasm" ? K.gemmWasm : reversed;
let products = 0, outputs = 0, differ = 0;
for (const [M, N, Kk] of job.shapes)
  for (const strided of [false, true])
    for (const add of [false, true]) {
      const lda = Kk + (strided ? 3 : 0), ldb = Kk + (strided ? 5 : 0), ldc = N + (strided ? 2 : 0);
      const ao = strided ? 7 : 0, bo = strided ? 1 : 0, co = strided ? 4 : 0;
      const A = fill(ao + M * lda), B = fill(bo + N * ldb), C1 = fill(co + M * ldc), C2 = C1.slice();
      K.gemmScalar(M, N, Kk, A, ao, lda, B, bo, ldb, C1, co, ldc, add);
      other(M, N, Kk, A, ao, lda, B, bo, ldb, C2, co, ldc, add);
      products += 1;
      for (let i = 0; i < C1.length; i++) {
        outputs += 1;
        if (!Object.is(C1[i], C2[i])) differ += 1;
      }
    }
process.stdout.write(JSON.stringify({ products, outputs, differ, engine: K.engine() }));
"""


def compare(mode: str, wasm: str | None, shapes: list) -> dict:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but no node found; .ci/run installs nodejs")
        pytest.skip("Node.js is not installed (it is needed for the book build too)")
    job = {"kernels": str(KERNELS), "wasm": wasm, "mode": mode, "shapes": shapes}
    run = subprocess.run([node, "-e", DRIVER], input=json.dumps(job), capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def test_the_product_in_webassembly_gives_the_javascript_products_bits():
    got = compare("wasm", gemm_wasm(), SMALL + STEP)
    assert got["engine"] == "webassembly"
    assert got["products"] == 4 * len(SMALL + STEP)
    assert got["differ"] == 0, f"{got['differ']} of {got['outputs']} outputs differ"


def test_the_comparison_sees_the_same_sum_in_another_order():
    got = compare("reversed", None, STEP)
    assert got["engine"] == "javascript"  # the repository's kernels.js holds the placeholder, not the bytes
    assert got["differ"] > 0


def test_a_wrong_webassembly_product_is_caught():
    text = GEMM_WAT.read_text(encoding="utf-8")
    right = "(local.set $c31 (f64x2.add (local.get $c31) (f64x2.mul (local.get $x3) (local.get $w1))))"
    assert text.count(right) == 1
    wrong = compile_wat(text.replace(right, right.replace("$w1", "$w0")))
    got = compare("wasm", base64.b64encode(wrong).decode("ascii"), STEP)
    assert got["engine"] == "webassembly"
    assert got["differ"] > 0
