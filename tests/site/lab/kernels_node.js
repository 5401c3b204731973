// Drives lab/kernels.js's products under Node for tests/site/test_lab_kernels.py: reads one JSON job on stdin
// ({kernels: the path of lab/kernels.js, wasm: base64 or null, mode, shapes: [[M, N, K], ...]}) and writes
// {products, outputs, differ, engine} as JSON on stdout.
// Runs every product both ways on random numbers (some of them -0 and exact zeros) and counts the outputs whose
// bits differ. `mode` "wasm" compares gemmWasm with gemmScalar; "reversed" compares gemmScalar with a JavaScript
// product whose k runs backwards (the control: the comparison must see a change of order).
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
