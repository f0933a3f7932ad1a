// Stereo frames as f64x2 lanes (left, right). Effects run on an interleaved float32 block, so one
// 64-bit load and one promote give a frame in double precision, and a demote and 64-bit store put
// it back rounded to float32 exactly as a Float32Array write rounds the JS kernels' doubles.

export const DENORMAL_FLOOR: f64 = 1e-20

@inline export function loadFrame(ptr: usize): v128 {
  return f64x2.promote_low_f32x4(v128.load64_zero(ptr))
}

@inline export function storeFrame(ptr: usize, v: v128): void {
  v128.store64_lane(ptr, f32x4.demote_f64x2_zero(v), 0)
}

/** Per lane |x| < 1e-20 ? 0 : x (NaN kept, as kernels/denormal.ts's flush keeps it). */
@inline export function flush2(v: v128): v128 {
  return v128.andnot(v, f64x2.lt(f64x2.abs(v), f64x2.splat(DENORMAL_FLOOR)))
}

@inline export function flush(x: f64): f64 {
  return Math.abs(x) < DENORMAL_FLOOR ? 0 : x
}

@inline export function splat(x: f64): v128 {
  return f64x2.splat(x)
}

/** Zeroed memory that lives as long as the instance (the stub runtime never frees). */
export function allocate(bytes: usize): usize {
  const p = heap.alloc(bytes)
  memory.fill(p, 0, bytes)
  return p
}
