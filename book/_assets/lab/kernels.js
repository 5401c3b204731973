// lab/kernels.js: the numerical kernels the other parts share, the JavaScript side of numpy's matrix product and
// of attention_core's kernels (reading.softmax_rows_kernel): C = A B^T (gemm), transposes, column sums, tanh, a
// softmax, and a pool of working arrays reused from one call to the next.
// A part of the laboratory's mathematics: ../ae-lab-math.js puts the parts together.
function aeLabKernels(lab) {
  "use strict";

  // Kernels. Every product is computed as C = A B^T (gemm): in JavaScript (gemmScalar) its inner loop runs along
  // two contiguous rows and a block of 4 x 2 outputs shares the loads. A B and A^T B are formed by transposing an
  // operand first, which is cheap beside the product. Working arrays come from a pool, reused from one call to the
  // next. Products large enough to gain from it run in WebAssembly (lab/gemm.wat, gemmWasm) where the engine has
  // WebAssembly's 128-bit SIMD: the same multiplications and additions in the same order, so the same numbers bit
  // for bit.

  var pool = {};

  // A working array of at least n numbers, named by its use (its contents are whatever the last user left).
  function buf(name, n) {
    var b = pool[name];
    if (!b || b.length < n) b = pool[name] = new Float64Array(Math.max(n, b ? 2 * b.length : 0));
    return b;
  }

  function zeros(name, n) {
    var b = buf(name, n);
    b.fill(0, 0, n);
    return b;
  }

  // C[m, n] (+)= sum_k A[ao + m lda + k] B[bo + n ldb + k] for m < M, n < N, k < K: in WebAssembly when it is
  // there and the product has at least 4 rows and 4096 multiplications (below that, the copies cost as much as
  // the SIMD saves, or more), in JavaScript otherwise.
  function gemm(M, N, K, A, ao, lda, B, bo, ldb, C, co, ldc, add) {
    if (wasm !== null && M >= 4 && M * N * K >= 4096) gemmWasm(M, N, K, A, ao, lda, B, bo, ldb, C, co, ldc, add);
    else gemmScalar(M, N, K, A, ao, lda, B, bo, ldb, C, co, ldc, add);
  }

  // gemm in JavaScript: each output summed from 0 along k = 0 .. K - 1 (s += a * b), then stored or added to C.
  function gemmScalar(M, N, K, A, ao, lda, B, bo, ldb, C, co, ldc, add) {
    var m = 0,
      n,
      k,
      x,
      w0,
      w1;
    for (; m + 3 < M; m += 4) {
      var a0 = ao + m * lda,
        a1 = a0 + lda,
        a2 = a1 + lda,
        a3 = a2 + lda;
      var c0 = co + m * ldc,
        c1 = c0 + ldc,
        c2 = c1 + ldc,
        c3 = c2 + ldc;
      for (n = 0; n + 1 < N; n += 2) {
        var b0 = bo + n * ldb,
          b1 = b0 + ldb;
        var s00 = 0,
          s01 = 0,
          s10 = 0,
          s11 = 0,
          s20 = 0,
          s21 = 0,
          s30 = 0,
          s31 = 0;
        for (k = 0; k < K; k++) {
          w0 = B[b0 + k];
          w1 = B[b1 + k];
          x = A[a0 + k];
          s00 += x * w0;
          s01 += x * w1;
          x = A[a1 + k];
          s10 += x * w0;
          s11 += x * w1;
          x = A[a2 + k];
          s20 += x * w0;
          s21 += x * w1;
          x = A[a3 + k];
          s30 += x * w0;
          s31 += x * w1;
        }
        if (add) {
          C[c0 + n] += s00;
          C[c0 + n + 1] += s01;
          C[c1 + n] += s10;
          C[c1 + n + 1] += s11;
          C[c2 + n] += s20;
          C[c2 + n + 1] += s21;
          C[c3 + n] += s30;
          C[c3 + n + 1] += s31;
        } else {
          C[c0 + n] = s00;
          C[c0 + n + 1] = s01;
          C[c1 + n] = s10;
          C[c1 + n + 1] = s11;
          C[c2 + n] = s20;
          C[c2 + n + 1] = s21;
          C[c3 + n] = s30;
          C[c3 + n + 1] = s31;
        }
      }
      if (n < N) {
        var b = bo + n * ldb,
          t0 = 0,
          t1 = 0,
          t2 = 0,
          t3 = 0;
        for (k = 0; k < K; k++) {
          w0 = B[b + k];
          t0 += A[a0 + k] * w0;
          t1 += A[a1 + k] * w0;
          t2 += A[a2 + k] * w0;
          t3 += A[a3 + k] * w0;
        }
        C[c0 + n] = add ? C[c0 + n] + t0 : t0;
        C[c1 + n] = add ? C[c1 + n] + t1 : t1;
        C[c2 + n] = add ? C[c2 + n] + t2 : t2;
        C[c3 + n] = add ? C[c3 + n] + t3 : t3;
      }
    }
    for (; m < M; m++) {
      var a = ao + m * lda,
        c = co + m * ldc;
      for (n = 0; n < N; n++) {
        var bn = bo + n * ldb,
          s = 0;
        for (k = 0; k < K; k++) s += A[a + k] * B[bn + k];
        C[c + n] = add ? C[c + n] + s : s;
      }
    }
  }

  // The compiled lab/gemm.wat, base64: the build writes it into the served copy of this file (ae_site._slim_scripts);
  // in the repository's copy it is the placeholder, and the products run in JavaScript unless useWasm is given
  // the bytes (the Node tests give them).
  var GEMM_WASM = "__AE_GEMM_WASM__";
  var wasm = null; // {gemm, transpose, memory, heap}: the module's functions, its memory and a float64 view of it

  // Products in WebAssembly from these bytes (base64), if the engine compiles them (it needs 128-bit SIMD);
  // useWasm(null) goes back to JavaScript. Returns whether the products now run in WebAssembly.
  function useWasm(base64) {
    wasm = null;
    if (!base64 || base64.indexOf("__") === 0 || typeof WebAssembly !== "object") return false;
    try {
      var bin = atob(base64),
        bytes = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      if (!WebAssembly.validate(bytes)) return false;
      var exports = new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports;
      wasm = { gemm: exports.gemm, transpose: exports.transpose, memory: exports.memory, heap: new Float64Array(exports.memory.buffer) };
    } catch (err) {
      wasm = null; // an engine that refuses to compile here (one without SIMD returned at validate): JavaScript
    }
    return wasm !== null;
  }

  // gemm in WebAssembly: A and B are copied into the module's memory, which transposes B into B^T (its columns
  // padded with zeros to a multiple of 4) and computes S = A B^T (each output summed from 0 along k, as
  // gemmScalar); S is then stored or added to C. The memory grows when a product needs more (the float64 view is
  // made again).
  function gemmWasm(M, N, K, A, ao, lda, B, bo, ldb, C, co, ldc, add) {
    var NP = (N + 3) & ~3,
      bt = (M * K + 1) & ~1, // offsets in float64s, even: each block starts on 16 bytes
      s = bt + ((K * NP + 1) & ~1),
      bytes = (s + Math.max(M * NP, N * K)) * 8,
      have = wasm.memory.buffer.byteLength;
    if (bytes > have) {
      wasm.memory.grow(Math.ceil((bytes - have) / 65536));
      wasm.heap = new Float64Array(wasm.memory.buffer);
    }
    var H = wasm.heap,
      b = s, // B's rows go where S will be, before the module transposes them into bt
      m,
      n,
      r,
      c;
    if (lda === K) H.set(A.subarray(ao, ao + M * K), 0);
    else for (m = 0; m < M; m++) H.set(A.subarray(ao + m * lda, ao + m * lda + K), m * K);
    if (ldb === K) H.set(B.subarray(bo, bo + N * K), b);
    else for (n = 0; n < N; n++) H.set(B.subarray(bo + n * ldb, bo + n * ldb + K), b + n * K);
    wasm.transpose(N, NP, K, b * 8, bt * 8);
    wasm.gemm(M, NP, K, 0, bt * 8, s * 8);
    for (m = 0; m < M; m++) {
      r = s + m * NP;
      c = co + m * ldc;
      if (add) for (n = 0; n < N; n++) C[c + n] += H[r + n];
      else for (n = 0; n < N; n++) C[c + n] = H[r + n];
    }
  }

  // out (cols x rows) = the transpose of A (rows x cols, at ao with row stride lda).
  function transpose(A, ao, lda, rows, cols, out) {
    for (var r = 0; r < rows; r++) {
      var base = ao + r * lda;
      for (var c = 0; c < cols; c++) out[c * rows + r] = A[base + c];
    }
    return out;
  }

  // g[k] += sum of the rows of A (rows x cols, row stride lda).
  function colsum(A, ao, lda, rows, cols, g) {
    for (var r = 0; r < rows; r++) for (var c = 0; c < cols; c++) g[c] += A[ao + r * lda + c];
  }

  // tanh from exp (about a third faster than Math.tanh in V8; the same to about 3e-16).
  function tanh(x) {
    if (x > 20) return 1;
    if (x < -20) return -1;
    var e = Math.exp(2 * x);
    return (e - 1) / (e + 1);
  }

  function sigmoid(x) {
    return 0.5 * (1 + tanh(0.5 * x)); // as gru.sigmoid: never overflows
  }

  // Softmax of x[o .. o + n) into y[yo ..], the maximum subtracted first.
  function softmaxInto(x, o, n, y, yo) {
    var top = -Infinity,
      j;
    for (j = 0; j < n; j++) if (x[o + j] > top) top = x[o + j];
    var total = 0;
    for (j = 0; j < n; j++) {
      var z = Math.exp(x[o + j] - top);
      y[yo + j] = z;
      total += z;
    }
    for (j = 0; j < n; j++) y[yo + j] /= total;
  }

  function size(shape) {
    return shape.reduce(function (a, b) {
      return a * b;
    }, 1);
  }

  function zerosLike(params) {
    var out = {};
    Object.keys(params).forEach(function (k) {
      out[k] = new Float64Array(params[k].length);
    });
    return out;
  }

  useWasm(GEMM_WASM);

  lab.kernels = {
    buf: buf,
    zeros: zeros,
    gemm: gemm,
    gemmScalar: gemmScalar,
    gemmWasm: gemmWasm,
    useWasm: useWasm,
    engine: function () {
      return wasm === null ? "javascript" : "webassembly";
    },
    transpose: transpose,
    colsum: colsum,
    tanh: tanh,
    softmaxInto: softmaxInto,
    size: size,
    zerosLike: zerosLike,
  };
}

if (typeof module === "object" && module.exports) module.exports = aeLabKernels;
