;; lab/gemm.wat: the laboratory's matrix product in WebAssembly (128-bit SIMD, two float64 lanes), used by
;; lab/kernels.js (gemmWasm) for every product large enough to gain from it. The build compiles it with wabt's
;; wat2wasm (ae_site.compile_wat) and writes the bytes into the served lab/kernels.js; this file is not served.
;;
;; s[m, n] = sum over k of a[m, k] bt[k, n] for m < M, n < NP (NP a multiple of 4; the caller pads bt's columns
;; with zeros), with a (M x K), bt (K x NP) and s (M x NP) row-major in memory at the byte offsets given.
;; The two lanes of a vector hold two neighbouring columns n, never two values of k: each output is summed from 0
;; along k = 0, 1, .., K - 1, one multiplication and one addition at a time (no fused multiply-add), exactly as
;; kernels.js's gemmScalar sums it, so the two give the same numbers bit for bit.
;; A block of 4 rows x 4 columns (8 vectors) is kept in registers while k runs; the rows left over (M mod 4) run
;; one at a time.
(module
  (memory (export "memory") 1) ;; 64 KiB to start; kernels.js grows it when a product needs more
  (func (export "gemm") (param $M i32) (param $NP i32) (param $K i32) (param $a i32) (param $bt i32) (param $s i32)
    (local $m i32) (local $n i32) (local $k i32)
    (local $pa i32) (local $pb i32) (local $rowa i32) (local $rows i32) (local $ka i32) (local $kb i32)
    (local $x0 v128) (local $x1 v128) (local $x2 v128) (local $x3 v128) (local $w0 v128) (local $w1 v128)
    (local $c00 v128) (local $c01 v128) (local $c10 v128) (local $c11 v128)
    (local $c20 v128) (local $c21 v128) (local $c30 v128) (local $c31 v128)
    (local.set $ka (i32.shl (local.get $K) (i32.const 3)))      ;; bytes per row of a
    (local.set $kb (i32.shl (local.get $NP) (i32.const 3)))     ;; bytes per row of bt and of s
    (local.set $m (i32.const 0))
    (block $rows4done
      (loop $rows4
        (br_if $rows4done (i32.gt_s (i32.add (local.get $m) (i32.const 4)) (local.get $M)))
        (local.set $rowa (i32.add (local.get $a) (i32.mul (local.get $m) (local.get $ka))))
        (local.set $rows (i32.add (local.get $s) (i32.mul (local.get $m) (local.get $kb))))
        (local.set $n (i32.const 0))
        (block $colsdone
          (loop $cols
            (br_if $colsdone (i32.ge_s (local.get $n) (local.get $NP)))
            (local.set $c00 (v128.const i64x2 0 0)) (local.set $c01 (v128.const i64x2 0 0))
            (local.set $c10 (v128.const i64x2 0 0)) (local.set $c11 (v128.const i64x2 0 0))
            (local.set $c20 (v128.const i64x2 0 0)) (local.set $c21 (v128.const i64x2 0 0))
            (local.set $c30 (v128.const i64x2 0 0)) (local.set $c31 (v128.const i64x2 0 0))
            (local.set $pa (local.get $rowa))
            (local.set $pb (i32.add (local.get $bt) (i32.shl (local.get $n) (i32.const 3))))
            (local.set $k (local.get $K))
            (block $kdone
              (loop $kloop
                (br_if $kdone (i32.eqz (local.get $k)))
                (local.set $w0 (v128.load (local.get $pb)))
                (local.set $w1 (v128.load offset=16 (local.get $pb)))
                (local.set $x0 (v128.load64_splat (local.get $pa)))
                (local.set $x1 (v128.load64_splat (i32.add (local.get $pa) (local.get $ka))))
                (local.set $x2 (v128.load64_splat (i32.add (local.get $pa) (i32.shl (local.get $ka) (i32.const 1)))))
                (local.set $x3 (v128.load64_splat (i32.add (local.get $pa) (i32.mul (local.get $ka) (i32.const 3)))))
                (local.set $c00 (f64x2.add (local.get $c00) (f64x2.mul (local.get $x0) (local.get $w0))))
                (local.set $c01 (f64x2.add (local.get $c01) (f64x2.mul (local.get $x0) (local.get $w1))))
                (local.set $c10 (f64x2.add (local.get $c10) (f64x2.mul (local.get $x1) (local.get $w0))))
                (local.set $c11 (f64x2.add (local.get $c11) (f64x2.mul (local.get $x1) (local.get $w1))))
                (local.set $c20 (f64x2.add (local.get $c20) (f64x2.mul (local.get $x2) (local.get $w0))))
                (local.set $c21 (f64x2.add (local.get $c21) (f64x2.mul (local.get $x2) (local.get $w1))))
                (local.set $c30 (f64x2.add (local.get $c30) (f64x2.mul (local.get $x3) (local.get $w0))))
                (local.set $c31 (f64x2.add (local.get $c31) (f64x2.mul (local.get $x3) (local.get $w1))))
                (local.set $pa (i32.add (local.get $pa) (i32.const 8)))
                (local.set $pb (i32.add (local.get $pb) (local.get $kb)))
                (local.set $k (i32.sub (local.get $k) (i32.const 1)))
                (br $kloop)))
            (local.set $pb (i32.add (local.get $rows) (i32.shl (local.get $n) (i32.const 3))))
            (v128.store (local.get $pb) (local.get $c00))
            (v128.store offset=16 (local.get $pb) (local.get $c01))
            (local.set $pb (i32.add (local.get $pb) (local.get $kb)))
            (v128.store (local.get $pb) (local.get $c10))
            (v128.store offset=16 (local.get $pb) (local.get $c11))
            (local.set $pb (i32.add (local.get $pb) (local.get $kb)))
            (v128.store (local.get $pb) (local.get $c20))
            (v128.store offset=16 (local.get $pb) (local.get $c21))
            (local.set $pb (i32.add (local.get $pb) (local.get $kb)))
            (v128.store (local.get $pb) (local.get $c30))
            (v128.store offset=16 (local.get $pb) (local.get $c31))
            (local.set $n (i32.add (local.get $n) (i32.const 4)))
            (br $cols)))
        (local.set $m (i32.add (local.get $m) (i32.const 4)))
        (br $rows4)))
    ;; the last rows, one at a time
    (block $rows1done
      (loop $rows1
        (br_if $rows1done (i32.ge_s (local.get $m) (local.get $M)))
        (local.set $rowa (i32.add (local.get $a) (i32.mul (local.get $m) (local.get $ka))))
        (local.set $rows (i32.add (local.get $s) (i32.mul (local.get $m) (local.get $kb))))
        (local.set $n (i32.const 0))
        (block $cdone
          (loop $c
            (br_if $cdone (i32.ge_s (local.get $n) (local.get $NP)))
            (local.set $c00 (v128.const i64x2 0 0)) (local.set $c01 (v128.const i64x2 0 0))
            (local.set $pa (local.get $rowa))
            (local.set $pb (i32.add (local.get $bt) (i32.shl (local.get $n) (i32.const 3))))
            (local.set $k (local.get $K))
            (block $kd
              (loop $kl
                (br_if $kd (i32.eqz (local.get $k)))
                (local.set $x0 (v128.load64_splat (local.get $pa)))
                (local.set $c00 (f64x2.add (local.get $c00) (f64x2.mul (local.get $x0) (v128.load (local.get $pb)))))
                (local.set $c01 (f64x2.add (local.get $c01) (f64x2.mul (local.get $x0) (v128.load offset=16 (local.get $pb)))))
                (local.set $pa (i32.add (local.get $pa) (i32.const 8)))
                (local.set $pb (i32.add (local.get $pb) (local.get $kb)))
                (local.set $k (i32.sub (local.get $k) (i32.const 1)))
                (br $kl)))
            (local.set $pb (i32.add (local.get $rows) (i32.shl (local.get $n) (i32.const 3))))
            (v128.store (local.get $pb) (local.get $c00))
            (v128.store offset=16 (local.get $pb) (local.get $c01))
            (local.set $n (i32.add (local.get $n) (i32.const 4)))
            (br $c)))
        (local.set $m (i32.add (local.get $m) (i32.const 1)))
        (br $rows1)))
  )
  ;; bt[k, n] = b[n, k] for n < N, k < K (b is N x K, row-major), and 0 for N <= n < NP: the second operand of gemm.
  (func (export "transpose") (param $N i32) (param $NP i32) (param $K i32) (param $b i32) (param $bt i32)
    (local $n i32) (local $k i32) (local $pb i32) (local $pt i32) (local $kb i32)
    (local.set $kb (i32.shl (local.get $NP) (i32.const 3)))
    (local.set $pb (local.get $b))
    (local.set $n (i32.const 0))
    (block $done
      (loop $cols
        (br_if $done (i32.ge_s (local.get $n) (local.get $NP)))
        (local.set $pt (i32.add (local.get $bt) (i32.shl (local.get $n) (i32.const 3))))
        (local.set $k (local.get $K))
        (block $kdone
          (loop $kloop
            (br_if $kdone (i32.eqz (local.get $k)))
            (if (i32.lt_s (local.get $n) (local.get $N))
              (then
                (f64.store (local.get $pt) (f64.load (local.get $pb)))
                (local.set $pb (i32.add (local.get $pb) (i32.const 8))))
              (else (f64.store (local.get $pt) (f64.const 0))))
            (local.set $pt (i32.add (local.get $pt) (local.get $kb)))
            (local.set $k (i32.sub (local.get $k) (i32.const 1)))
            (br $kloop)))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (br $cols)))
  )
)
