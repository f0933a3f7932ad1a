// The strip's reverb: kernels/reverb.ts (8-line feedback delay network, normalised Hadamard
// mixing, one-pole damping in every loop, two input allpasses per channel) with the same
// arithmetic in the same order, doubles rounded to float32 where the JS kernel stores into its
// Float32Array, so the output matches it bit for bit (channel-strip-wasm.test.ts). It runs in
// place on the strip's interleaved block, so the whole quantum stays in WebAssembly.
import { Smoother, IdleGate } from './smoothing'
import { allocate, flush } from './stereo'

export const REVERB_RT60_SECONDS: f64 = 2.2
const LINES: i32 = 8
const DIFFUSERS: i32 = 4
const DIFFUSER_GAIN: f64 = 0.6
const DAMPING: f64 = 0.35
const LINE_MS: StaticArray<f64> = [29.7, 37.1, 41.1, 43.7, 53.3, 59.9, 67.3, 73.1]
const DIFFUSER_MS: StaticArray<f64> = [4.77, 3.59, 5.21, 3.13]

export function reverbWetForAmount(amount: f64): f64 {
  return (0.8 * Math.min(100, Math.max(0, amount))) / 100
}

@inline function at(p: usize, i: i32): f32 {
  return load<f32>(p + (<usize>i << 2))
}

export class Reverb {
  /** float32: the eight lines, then the four diffusers, back to back. */
  mem: usize = 0
  total: i32 = 0
  /** i32 × 8: where each line starts and ends in `mem` (in floats), and its read/write position. */
  off: StaticArray<i32> = new StaticArray<i32>(LINES)
  len: StaticArray<i32> = new StaticArray<i32>(LINES)
  pos: StaticArray<i32> = new StaticArray<i32>(LINES)
  decay: StaticArray<f64> = new StaticArray<f64>(LINES)
  damp: StaticArray<f64> = new StaticArray<f64>(LINES)
  dOff: StaticArray<i32> = new StaticArray<i32>(DIFFUSERS)
  dLen: StaticArray<i32> = new StaticArray<i32>(DIFFUSERS)
  dPos: StaticArray<i32> = new StaticArray<i32>(DIFFUSERS)
  wet: Smoother
  feed: Smoother
  gate: IdleGate = new IdleGate()
  silentFrames: i32 = 0
  cleared: bool = true
  longestPath: i32 = 0

  constructor(sampleRate: f64) {
    this.feed = new Smoother(1, sampleRate)
    this.wet = new Smoother(reverbWetForAmount(0), sampleRate)
    let total: i32 = 0
    let longest: i32 = 0
    for (let k = 0; k < LINES; k++) {
      const n = <i32>Math.max(2, Math.round((LINE_MS[k] / 1000) * sampleRate))
      this.len[k] = n
      this.off[k] = total
      total += n
      if (n > longest) longest = n
      this.decay[k] = Math.pow(10, (-3 * <f64>n) / (Math.max(0.1, REVERB_RT60_SECONDS) * sampleRate))
    }
    let diffusion: i32 = 0
    for (let k = 0; k < DIFFUSERS; k++) {
      const n = <i32>Math.max(2, Math.round((DIFFUSER_MS[k] / 1000) * sampleRate))
      this.dLen[k] = n
      this.dOff[k] = total
      total += n
      diffusion += n
    }
    this.total = total
    this.mem = allocate(<usize>total << 2)
    this.longestPath = longest + diffusion
  }

  setAmount(amount: f64): void {
    if (!isFinite<f64>(amount)) return
    this.wet.setTarget(reverbWetForAmount(amount))
  }

  snap(): void {
    this.wet.snap(this.wet.target)
  }

  active(): bool {
    const g = this.gate.check(this.wet)
    if (g < 0) this.reset()
    return g > 0
  }

  reset(): void {
    memory.fill(this.mem, 0, <usize>this.total << 2)
    for (let k = 0; k < LINES; k++) this.damp[k] = 0
    this.feed.snap(0)
    this.feed.setTarget(1)
  }

  /** In place on `frames` interleaved float32 frames (left, right) at `io`. */
  process(io: usize, frames: i32): void {
    const mem = this.mem
    const off = this.off
    const len = this.len
    const pos = this.pos
    const o0 = off[0], o1 = off[1], o2 = off[2], o3 = off[3]
    const o4 = off[4], o5 = off[5], o6 = off[6], o7 = off[7]
    let p0 = o0 + pos[0], p1 = o1 + pos[1], p2 = o2 + pos[2], p3 = o3 + pos[3]
    let p4 = o4 + pos[4], p5 = o5 + pos[5], p6 = o6 + pos[6], p7 = o7 + pos[7]
    const n0 = o0 + len[0], n1 = o1 + len[1], n2 = o2 + len[2], n3 = o3 + len[3]
    const n4 = o4 + len[4], n5 = o5 + len[5], n6 = o6 + len[6], n7 = o7 + len[7]
    const dc = this.decay
    const g01 = f64x2.replace_lane(f64x2.splat(dc[0]), 1, dc[1])
    const g23 = f64x2.replace_lane(f64x2.splat(dc[2]), 1, dc[3])
    const g45 = f64x2.replace_lane(f64x2.splat(dc[4]), 1, dc[5])
    const g67 = f64x2.replace_lane(f64x2.splat(dc[6]), 1, dc[7])
    const dm = this.damp
    let s01 = f64x2.replace_lane(f64x2.splat(dm[0]), 1, dm[1])
    let s23 = f64x2.replace_lane(f64x2.splat(dm[2]), 1, dm[3])
    let s45 = f64x2.replace_lane(f64x2.splat(dm[4]), 1, dm[5])
    let s67 = f64x2.replace_lane(f64x2.splat(dm[6]), 1, dm[7])
    const dOff = this.dOff
    const e0 = dOff[0], e1 = dOff[1], e2 = dOff[2], e3 = dOff[3]
    const dp = this.dPos
    let q0 = e0 + dp[0], q1 = e1 + dp[1], q2 = e2 + dp[2], q3 = e3 + dp[3]
    const dl4 = this.dLen
    const m0 = e0 + dl4[0], m1 = e1 + dl4[1], m2 = e2 + dl4[2], m3 = e3 + dl4[3]
    const wetSm = this.wet
    const feedSm = this.feed
    const steady = !wetSm.moving() && !feedSm.moving()
    let wet = wetSm.value
    let feed = feedSm.value
    const k: f64 = 1 - DAMPING
    const G = DIFFUSER_GAIN
    const norm: f64 = 1 / Math.sqrt(8)
    const kk = f64x2.splat(k)
    const nn = f64x2.splat(norm)
    for (let i = 0; i < frames; ) {
      let run = frames - i
      if (n0 - p0 < run) run = n0 - p0
      if (n1 - p1 < run) run = n1 - p1
      if (n2 - p2 < run) run = n2 - p2
      if (n3 - p3 < run) run = n3 - p3
      if (n4 - p4 < run) run = n4 - p4
      if (n5 - p5 < run) run = n5 - p5
      if (n6 - p6 < run) run = n6 - p6
      if (n7 - p7 < run) run = n7 - p7
      if (m0 - q0 < run) run = m0 - q0
      if (m1 - q1 < run) run = m1 - q1
      if (m2 - q2 < run) run = m2 - q2
      if (m3 - q3 < run) run = m3 - q3
      const end = i + run
      for (; i < end; i++) {
        if (!steady) {
          wet = wetSm.next()
          feed = feedSm.next()
        }
        const frame = io + (<usize>i << 3)
        const xl32 = load<f32>(frame)
        const xr32 = load<f32>(frame, 4)
        const xl = <f64>xl32
        const xr = <f64>xr32
        const fl = xl * feed
        const fr = xr * feed
        let d = <f64>at(mem, q0)
        let v = fl + G * d
        store<f32>(mem + (<usize>q0 << 2), <f32>v)
        q0++
        let u = d - G * v
        d = <f64>at(mem, q1)
        v = u + G * d
        store<f32>(mem + (<usize>q1 << 2), <f32>v)
        q1++
        const dl = (d - G * v) * 0.5
        d = <f64>at(mem, q2)
        v = fr + G * d
        store<f32>(mem + (<usize>q2 << 2), <f32>v)
        q2++
        u = d - G * v
        d = <f64>at(mem, q3)
        v = u + G * d
        store<f32>(mem + (<usize>q3 << 2), <f32>v)
        q3++
        const dr = (d - G * v) * 0.5
        // The eight lines as four f64x2 (lines 0|1, 2|3, 4|5, 6|7): lane by lane the JS kernel's
        // arithmetic, so the same bits.
        const x01 = f64x2.replace_lane(f64x2.splat(<f64>at(mem, p0)), 1, <f64>at(mem, p1))
        const x23 = f64x2.replace_lane(f64x2.splat(<f64>at(mem, p2)), 1, <f64>at(mem, p3))
        const x45 = f64x2.replace_lane(f64x2.splat(<f64>at(mem, p4)), 1, <f64>at(mem, p5))
        const x67 = f64x2.replace_lane(f64x2.splat(<f64>at(mem, p6)), 1, <f64>at(mem, p7))
        s01 = f64x2.add(s01, f64x2.mul(kk, f64x2.sub(x01, s01)))
        s23 = f64x2.add(s23, f64x2.mul(kk, f64x2.sub(x23, s23)))
        s45 = f64x2.add(s45, f64x2.mul(kk, f64x2.sub(x45, s45)))
        s67 = f64x2.add(s67, f64x2.mul(kk, f64x2.sub(x67, s67)))
        const v01 = f64x2.mul(s01, g01)
        const v23 = f64x2.mul(s23, g23)
        const v45 = f64x2.mul(s45, g45)
        const v67 = f64x2.mul(s67, g67)
        // (yl, yr) = ((v0 + v2) + v4) + v6, ((v1 + v3) + v5) + v7
        const y = f64x2.add(f64x2.add(f64x2.add(v01, v23), v45), v67)
        // 8-point fast Walsh–Hadamard transform, two lanes at a time.
        const e02 = i64x2.shuffle(v01, v23, 0, 2)
        const o13 = i64x2.shuffle(v01, v23, 1, 3)
        const e46 = i64x2.shuffle(v45, v67, 0, 2)
        const o57 = i64x2.shuffle(v45, v67, 1, 3)
        const b02 = f64x2.add(e02, o13) // b0, b2
        const b13 = f64x2.sub(e02, o13) // b1, b3
        const b46 = f64x2.add(e46, o57) // b4, b6
        const b57 = f64x2.sub(e46, o57) // b5, b7
        const b01 = i64x2.shuffle(b02, b13, 0, 2)
        const b23 = i64x2.shuffle(b02, b13, 1, 3)
        const b45 = i64x2.shuffle(b46, b57, 0, 2)
        const b67 = i64x2.shuffle(b46, b57, 1, 3)
        const c01 = f64x2.add(b01, b23)
        const c23 = f64x2.sub(b01, b23)
        const c45 = f64x2.add(b45, b67)
        const c67 = f64x2.sub(b45, b67)
        const dlr = f64x2.replace_lane(f64x2.splat(dl), 1, dr)
        const w01 = f64x2.add(f64x2.mul(f64x2.add(c01, c45), nn), dlr)
        const w45 = f64x2.add(f64x2.mul(f64x2.sub(c01, c45), nn), dlr)
        const w23 = f64x2.add(f64x2.mul(f64x2.add(c23, c67), nn), dlr)
        const w67 = f64x2.add(f64x2.mul(f64x2.sub(c23, c67), nn), dlr)
        const f01 = f32x4.demote_f64x2_zero(w01)
        const f23 = f32x4.demote_f64x2_zero(w23)
        const f45 = f32x4.demote_f64x2_zero(w45)
        const f67 = f32x4.demote_f64x2_zero(w67)
        store<f32>(mem + (<usize>p0 << 2), f32x4.extract_lane(f01, 0))
        store<f32>(mem + (<usize>p1 << 2), f32x4.extract_lane(f01, 1))
        store<f32>(mem + (<usize>p2 << 2), f32x4.extract_lane(f23, 0))
        store<f32>(mem + (<usize>p3 << 2), f32x4.extract_lane(f23, 1))
        store<f32>(mem + (<usize>p4 << 2), f32x4.extract_lane(f45, 0))
        store<f32>(mem + (<usize>p5 << 2), f32x4.extract_lane(f45, 1))
        store<f32>(mem + (<usize>p6 << 2), f32x4.extract_lane(f67, 0))
        store<f32>(mem + (<usize>p7 << 2), f32x4.extract_lane(f67, 1))
        const yl = f64x2.extract_lane(y, 0)
        const yr = f64x2.extract_lane(y, 1)
        p0++
        p1++
        p2++
        p3++
        p4++
        p5++
        p6++
        p7++
        store<f32>(frame, <f32>(xl + wet * yl * 0.5))
        store<f32>(frame, <f32>(xr + wet * yr * 0.5), 4)
      }
      if (p0 == n0) p0 = o0
      if (p1 == n1) p1 = o1
      if (p2 == n2) p2 = o2
      if (p3 == n3) p3 = o3
      if (p4 == n4) p4 = o4
      if (p5 == n5) p5 = o5
      if (p6 == n6) p6 = o6
      if (p7 == n7) p7 = o7
      if (q0 == m0) q0 = e0
      if (q1 == m1) q1 = e1
      if (q2 == m2) q2 = e2
      if (q3 == m3) q3 = e3
    }
    pos[0] = p0 - o0
    pos[1] = p1 - o1
    pos[2] = p2 - o2
    pos[3] = p3 - o3
    pos[4] = p4 - o4
    pos[5] = p5 - o5
    pos[6] = p6 - o6
    pos[7] = p7 - o7
    const s0 = flush(f64x2.extract_lane(s01, 0))
    const s1 = flush(f64x2.extract_lane(s01, 1))
    const s2 = flush(f64x2.extract_lane(s23, 0))
    const s3 = flush(f64x2.extract_lane(s23, 1))
    const s4 = flush(f64x2.extract_lane(s45, 0))
    const s5 = flush(f64x2.extract_lane(s45, 1))
    const s6 = flush(f64x2.extract_lane(s67, 0))
    const s7 = flush(f64x2.extract_lane(s67, 1))
    dm[0] = s0
    dm[1] = s1
    dm[2] = s2
    dm[3] = s3
    dm[4] = s4
    dm[5] = s5
    dm[6] = s6
    dm[7] = s7
    dp[0] = q0 - e0
    dp[1] = q1 - e1
    dp[2] = q2 - e2
    dp[3] = q3 - e3
    if (s0 == 0 && s1 == 0 && s2 == 0 && s3 == 0 && s4 == 0 && s5 == 0 && s6 == 0 && s7 == 0) {
      // Rung out below −400 dB and the input silent for longer than the longest path: the lines
      // hold only sub-floor residue, cleared so the tail ends in exact zeros. Like the JS kernel,
      // which runs in place there too, this looks at the block as it leaves.
      let silent = true
      for (let i = 0; i < frames && silent; i++) {
        const frame = io + (<usize>i << 3)
        if (load<f32>(frame) != 0 || load<f32>(frame, 4) != 0) silent = false
      }
      this.silentFrames = silent ? this.silentFrames + frames : 0
      if (this.silentFrames > this.longestPath && !this.cleared) {
        this.reset()
        this.cleared = true
      }
    } else {
      this.silentFrames = 0
      this.cleared = false
    }
  }
}
