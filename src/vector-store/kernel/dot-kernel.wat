;; Similarity kernels of the in-memory vector store: one pass over a row-major
;; float32 matrix, writing the dot product of every row with a query vector
;; (rows are normalised on insert, so the dot product is the cosine
;; similarity), and the same over int8 codes of the rows for the int8 mode.
;;
;; Layout contract (kept by the TypeScript side):
;; - `stride` (floats per row) is a multiple of 4; padding lanes are zero;
;; - `codeStride` (int8 codes per row) is a multiple of 16; padding codes are zero;
;; - every pointer is a byte offset aligned to 16 (scales: to 4).
;;
;; Compile with `npx tsx bench/vector/generate-dot-kernel.ts`, which writes
;; dot-kernel-bytes.ts next to this file.
(module
  (import "env" "memory" (memory 1))

  (func (export "dotRows")
    (param $query i32) (param $rows i32) (param $count i32) (param $stride i32) (param $out i32)
    (local $rowBytes i32) (local $unrolledBytes i32) (local $outEnd i32)
    (local $row i32) (local $q i32) (local $unrolledEnd i32) (local $rowEnd i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)

    (local.set $rowBytes (i32.shl (local.get $stride) (i32.const 2)))
    ;; Bytes of each row covered by the 4-way unrolled loop (64 bytes per step).
    (local.set $unrolledBytes (i32.and (local.get $rowBytes) (i32.const -64)))
    (local.set $outEnd (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))))

    (block $rowsDone
      (loop $rowLoop
        (br_if $rowsDone (i32.ge_u (local.get $out) (local.get $outEnd)))
        (local.set $a0 (v128.const i64x2 0 0))
        (local.set $a1 (v128.const i64x2 0 0))
        (local.set $a2 (v128.const i64x2 0 0))
        (local.set $a3 (v128.const i64x2 0 0))
        (local.set $row (local.get $rows))
        (local.set $q (local.get $query))
        (local.set $unrolledEnd (i32.add (local.get $rows) (local.get $unrolledBytes)))
        (local.set $rowEnd (i32.add (local.get $rows) (local.get $rowBytes)))

        ;; Four independent accumulators hide the latency of the float adds.
        (block $unrolledDone
          (loop $unrolled
            (br_if $unrolledDone (i32.ge_u (local.get $row) (local.get $unrolledEnd)))
            (local.set $a0 (f32x4.add (local.get $a0)
              (f32x4.mul (v128.load (local.get $row)) (v128.load (local.get $q)))))
            (local.set $a1 (f32x4.add (local.get $a1)
              (f32x4.mul (v128.load offset=16 (local.get $row)) (v128.load offset=16 (local.get $q)))))
            (local.set $a2 (f32x4.add (local.get $a2)
              (f32x4.mul (v128.load offset=32 (local.get $row)) (v128.load offset=32 (local.get $q)))))
            (local.set $a3 (f32x4.add (local.get $a3)
              (f32x4.mul (v128.load offset=48 (local.get $row)) (v128.load offset=48 (local.get $q)))))
            (local.set $row (i32.add (local.get $row) (i32.const 64)))
            (local.set $q (i32.add (local.get $q) (i32.const 64)))
            (br $unrolled)))

        ;; Remaining 4-float chunks when the stride is not a multiple of 16.
        (block $tailDone
          (loop $tail
            (br_if $tailDone (i32.ge_u (local.get $row) (local.get $rowEnd)))
            (local.set $a0 (f32x4.add (local.get $a0)
              (f32x4.mul (v128.load (local.get $row)) (v128.load (local.get $q)))))
            (local.set $row (i32.add (local.get $row) (i32.const 16)))
            (local.set $q (i32.add (local.get $q) (i32.const 16)))
            (br $tail)))

        (local.set $a0 (f32x4.add
          (f32x4.add (local.get $a0) (local.get $a1))
          (f32x4.add (local.get $a2) (local.get $a3))))
        (f32.store (local.get $out)
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $a0)) (f32x4.extract_lane 1 (local.get $a0)))
            (f32.add (f32x4.extract_lane 2 (local.get $a0)) (f32x4.extract_lane 3 (local.get $a0)))))

        (local.set $rows (local.get $rowEnd))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $rowLoop))))

  ;; Approximate scores for the int8 mode: row codes (int8, one scale per row)
  ;; against the query's int16 codes, accumulated exactly in int32 and scaled
  ;; by the row's scale. The query's own scale is left out: it is the same for
  ;; every row, so the order of rows does not change.
  (func (export "approximateRows")
    (param $queryCodes i32) (param $codes i32) (param $count i32) (param $codeStride i32)
    (param $scales i32) (param $out i32)
    (local $outEnd i32) (local $row i32) (local $rowEnd i32) (local $q i32) (local $chunk v128)
    (local $a0 v128) (local $a1 v128)

    (local.set $outEnd (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))))
    (block $rowsDone
      (loop $rowLoop
        (br_if $rowsDone (i32.ge_u (local.get $out) (local.get $outEnd)))
        (local.set $a0 (v128.const i64x2 0 0))
        (local.set $a1 (v128.const i64x2 0 0))
        (local.set $row (local.get $codes))
        (local.set $rowEnd (i32.add (local.get $codes) (local.get $codeStride)))
        (local.set $q (local.get $queryCodes))

        ;; 16 codes per step: widen to int16, multiply-add pairs into int32 lanes.
        (block $chunksDone
          (loop $chunks
            (br_if $chunksDone (i32.ge_u (local.get $row) (local.get $rowEnd)))
            (local.set $chunk (v128.load (local.get $row)))
            (local.set $a0 (i32x4.add (local.get $a0)
              (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $chunk)) (v128.load (local.get $q)))))
            (local.set $a1 (i32x4.add (local.get $a1)
              (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $chunk)) (v128.load offset=16 (local.get $q)))))
            (local.set $row (i32.add (local.get $row) (i32.const 16)))
            (local.set $q (i32.add (local.get $q) (i32.const 32)))
            (br $chunks)))

        (local.set $a0 (i32x4.add (local.get $a0) (local.get $a1)))
        (f32.store (local.get $out)
          (f32.mul (f32.load (local.get $scales))
            (f32.convert_i32_s (i32.add
              (i32.add (i32x4.extract_lane 0 (local.get $a0)) (i32x4.extract_lane 1 (local.get $a0)))
              (i32.add (i32x4.extract_lane 2 (local.get $a0)) (i32x4.extract_lane 3 (local.get $a0)))))))

        (local.set $codes (local.get $rowEnd))
        (local.set $scales (i32.add (local.get $scales) (i32.const 4)))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $rowLoop))))
)
