// Radix-2 decimation-in-time FFT on split real/imaginary arrays (structure of arrays, so four
// butterflies run in one f32x4 operation). The input is written in bit-reversed order by the
// caller (bitReversal gives the table); the output comes out in natural order.

/** Bytes of `count` f32 (or i32) values. */
// @ts-ignore: decorator
@inline export function bytes(count: i32): usize {
  return (<usize>count) << 2
}

/** Zeroed memory for `count` 32-bit values, 16-byte aligned; the stub runtime never frees it. */
export function allocate(count: i32): usize {
  const size = bytes(count)
  const ptr = heap.alloc(size)
  memory.fill(ptr, 0, size)
  return ptr
}

/** rev[i] = i with its log2(n) bits reversed. */
export function bitReversal(n: i32): usize {
  const table = allocate(n)
  let bits = 0
  while (1 << bits < n) bits++
  for (let i = 0; i < n; i++) {
    let r = 0
    for (let b = 0; b < bits; b++) if ((i >> b) & 1) r |= 1 << (bits - 1 - b)
    store<i32>(table + bytes(i), r)
  }
  return table
}

/**
 * Twiddle factors level by level: for the level of butterfly span h (1, 2, 4, … n/2), the h
 * factors exp(-iπj/h) start at index h - 1. Contiguous per level so the vector loop reads them
 * four at a time. Computed in double precision with AssemblyScript's own Math (the same bits in
 * every runtime), then rounded once.
 */
export function twiddles(n: i32, re: usize, im: usize): void {
  for (let h = 1; h < n; h <<= 1) {
    for (let j = 0; j < h; j++) {
      const angle = (-Math.PI * <f64>j) / <f64>h
      store<f32>(re + bytes(h - 1 + j), <f32>Math.cos(angle))
      store<f32>(im + bytes(h - 1 + j), <f32>Math.sin(angle))
    }
  }
}

/** In-place forward FFT of size n (a power of two, at least 8) on bit-reversed input. */
export function fft(re: usize, im: usize, n: i32, twr: usize, twi: usize): void {
  // Span 1: the factor is 1.
  for (let i = 0; i < n; i += 2) {
    const p = re + bytes(i)
    const q = im + bytes(i)
    const a = load<f32>(p)
    const b = load<f32>(p, 4)
    store<f32>(p, a + b)
    store<f32>(p, a - b, 4)
    const c = load<f32>(q)
    const d = load<f32>(q, 4)
    store<f32>(q, c + d)
    store<f32>(q, c - d, 4)
  }
  // Span 2: the factors are 1 and -i.
  for (let i = 0; i < n; i += 4) {
    const p = re + bytes(i)
    const q = im + bytes(i)
    let ar = load<f32>(p)
    let ai = load<f32>(q)
    let br = load<f32>(p, 8)
    let bi = load<f32>(q, 8)
    store<f32>(p, ar + br)
    store<f32>(q, ai + bi)
    store<f32>(p, ar - br, 8)
    store<f32>(q, ai - bi, 8)
    ar = load<f32>(p, 4)
    ai = load<f32>(q, 4)
    // (br + i·bi)·(-i) = bi - i·br
    br = load<f32>(q, 12)
    bi = -load<f32>(p, 12)
    store<f32>(p, ar + br, 4)
    store<f32>(q, ai + bi, 4)
    store<f32>(p, ar - br, 12)
    store<f32>(q, ai - bi, 12)
  }
  // Spans 4 and up: four butterflies per vector operation.
  for (let h = 4; h < n; h <<= 1) {
    const wr0 = twr + bytes(h - 1)
    const wi0 = twi + bytes(h - 1)
    const step = h << 1
    for (let g = 0; g < n; g += step) {
      const pa = re + bytes(g)
      const qa = im + bytes(g)
      const pb = pa + bytes(h)
      const qb = qa + bytes(h)
      for (let j = 0; j < h; j += 4) {
        const o = bytes(j)
        const ar = v128.load(pa + o)
        const ai = v128.load(qa + o)
        const br = v128.load(pb + o)
        const bi = v128.load(qb + o)
        const wr = v128.load(wr0 + o)
        const wi = v128.load(wi0 + o)
        const tr = f32x4.sub(f32x4.mul(br, wr), f32x4.mul(bi, wi))
        const ti = f32x4.add(f32x4.mul(br, wi), f32x4.mul(bi, wr))
        v128.store(pa + o, f32x4.add(ar, tr))
        v128.store(qa + o, f32x4.add(ai, ti))
        v128.store(pb + o, f32x4.sub(ar, tr))
        v128.store(qb + o, f32x4.sub(ai, ti))
      }
    }
  }
}
