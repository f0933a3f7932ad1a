/**
 * Stereo algorithmic reverb: a feedback delay network of 8 lines mixed by a normalised 8×8
 * Hadamard matrix (orthogonal, so the loop is lossless before the per-line decay gains), with a
 * one-pole damping lowpass in every loop and two input allpass diffusers per channel. Per-line
 * gains give the same RT60 on every line; all loop gains are < 1, so any input stays bounded.
 * Output = dry + wet · reverb; amount 0 is bypass (wet glides to 0, then the network is cleared and skipped).
 */
import { flush } from './denormal.ts'
import { Smoother } from './smoothing.ts'
import { IdleGate } from './idle-gate.ts'

export const REVERB_RT60_SECONDS = 2.2
/** Mutually prime-ish line lengths (ms) so echoes do not pile up on a common period. */
const LINE_MS = [29.7, 37.1, 41.1, 43.7, 53.3, 59.9, 67.3, 73.1] as const
const DIFFUSER_MS = [4.77, 3.59, 5.21, 3.13] as const
const DIFFUSER_GAIN = 0.6
const DAMPING = 0.35
const LINES = 8

export function reverbWetForAmount(amount: number): number {
  return (0.8 * Math.min(100, Math.max(0, amount))) / 100
}

export class ReverbKernel {
  private readonly lines: Float32Array[]
  /**
   * All eight lines and the four diffusers back to back (lines[k], diffusers[k] are views of it),
   * so the hot loop holds one array rather than twelve.
   */
  private readonly memory: Float32Array
  private readonly offsets: Int32Array
  private readonly diffOffsets: Int32Array
  private readonly lengths: Int32Array
  private readonly positions: Int32Array
  private readonly decay: Float64Array
  private readonly damp: Float64Array
  private readonly diffusers: Float32Array[]
  private readonly diffPos: Int32Array
  private readonly wet: Smoother
  /**
   * Gain on what enters the delay memory. After a reset (bypass) the memory is empty; switching
   * on would make the first delayed copy of ongoing audio start with a step. Fading the feed in
   * from 0 makes the wet signal build up smoothly instead.
   */
  private readonly feed: Smoother
  private silentFrames = 0
  private cleared = true
  private readonly longestPath: number

  constructor(sampleRate: number, amount = 0, rt60Seconds = REVERB_RT60_SECONDS) {
    this.lines = []
    this.lengths = new Int32Array(LINES)
    this.positions = new Int32Array(LINES)
    this.decay = new Float64Array(LINES)
    this.damp = new Float64Array(LINES)
    for (let k = 0; k < LINES; k++) {
      const len = Math.max(2, Math.round((LINE_MS[k]! / 1000) * sampleRate))
      this.lengths[k] = len
      // −60 dB after rt60 seconds: g^(rt60·fs/len) = 10^-3.
      this.decay[k] = Math.pow(10, (-3 * len) / (Math.max(0.1, rt60Seconds) * sampleRate))
    }
    this.offsets = new Int32Array(LINES)
    let total = 0
    for (let k = 0; k < LINES; k++) {
      this.offsets[k] = total
      total += this.lengths[k]!
    }
    const diffLengths = DIFFUSER_MS.map((ms) => Math.max(2, Math.round((ms / 1000) * sampleRate)))
    this.diffOffsets = new Int32Array(DIFFUSER_MS.length)
    for (let k = 0; k < DIFFUSER_MS.length; k++) {
      this.diffOffsets[k] = total
      total += diffLengths[k]!
    }
    this.memory = new Float32Array(total)
    for (let k = 0; k < LINES; k++) this.lines.push(this.memory.subarray(this.offsets[k]!, this.offsets[k]! + this.lengths[k]!))
    this.diffusers = diffLengths.map((n, k) => this.memory.subarray(this.diffOffsets[k]!, this.diffOffsets[k]! + n))
    this.diffPos = new Int32Array(DIFFUSER_MS.length)
    this.longestPath = Math.max(...this.lengths) + this.diffusers.reduce((n, d) => n + d.length, 0)
    this.feed = new Smoother(1, sampleRate)
    this.wet = new Smoother(reverbWetForAmount(amount > 0 ? amount : 0), sampleRate)
  }

  setAmount(amount: number): void {
    if (!Number.isFinite(amount)) return
    this.wet.setTarget(reverbWetForAmount(amount))
  }

  /** Direct wet gain (0–1). */
  setWet(wet: number): void {
    if (Number.isFinite(wet)) this.wet.setTarget(Math.min(1, Math.max(0, wet)))
  }

  snap(): void {
    this.wet.snap(this.wet.target)
  }

  /** False once the bypass fade has finished: the caller may skip process() entirely. */
  get active(): boolean {
    return this.gate.check(this.wet, this)
  }
  private readonly gate = new IdleGate()

  reset(): void {
    this.memory.fill(0)
    this.damp.fill(0)
    this.feed.snap(0)
    this.feed.setTarget(1)
  }

  process(inL: Float32Array, inR: Float32Array, outL: Float32Array, outR: Float32Array, frames: number): void {
    // Hand-unrolled: eight line pointers in locals is several times faster than loops over arrays.
    // Pointers are absolute indices into memory: line k spans [o_k, n_k).
    const mem = this.memory
    const pos = this.positions
    const len = this.lengths
    const off = this.offsets
    const o0 = off[0]!,
      o1 = off[1]!,
      o2 = off[2]!,
      o3 = off[3]!,
      o4 = off[4]!,
      o5 = off[5]!,
      o6 = off[6]!,
      o7 = off[7]!
    let p0 = o0 + pos[0]!,
      p1 = o1 + pos[1]!,
      p2 = o2 + pos[2]!,
      p3 = o3 + pos[3]!
    let p4 = o4 + pos[4]!,
      p5 = o5 + pos[5]!,
      p6 = o6 + pos[6]!,
      p7 = o7 + pos[7]!
    const n0 = o0 + len[0]!,
      n1 = o1 + len[1]!,
      n2 = o2 + len[2]!,
      n3 = o3 + len[3]!
    const n4 = o4 + len[4]!,
      n5 = o5 + len[5]!,
      n6 = o6 + len[6]!,
      n7 = o7 + len[7]!
    const dc = this.decay
    const g0 = dc[0]!,
      g1 = dc[1]!,
      g2 = dc[2]!,
      g3 = dc[3]!,
      g4 = dc[4]!,
      g5 = dc[5]!,
      g6 = dc[6]!,
      g7 = dc[7]!
    const dm = this.damp
    let s0 = dm[0]!,
      s1 = dm[1]!,
      s2 = dm[2]!,
      s3 = dm[3]!,
      s4 = dm[4]!,
      s5 = dm[5]!,
      s6 = dm[6]!,
      s7 = dm[7]!
    const dOff = this.diffOffsets
    const e0 = dOff[0]!,
      e1 = dOff[1]!,
      e2 = dOff[2]!,
      e3 = dOff[3]!
    const dp = this.diffPos
    let q0 = e0 + dp[0]!,
      q1 = e1 + dp[1]!,
      q2 = e2 + dp[2]!,
      q3 = e3 + dp[3]!
    const df = this.diffusers
    const m0 = e0 + df[0]!.length,
      m1 = e1 + df[1]!.length,
      m2 = e2 + df[2]!.length,
      m3 = e3 + df[3]!.length
    const wetSm = this.wet
    const feedSm = this.feed
    const steady = !wetSm.moving && !feedSm.moving
    let wet = wetSm.value
    let feed = feedSm.value
    const k = 1 - DAMPING
    const G = DIFFUSER_GAIN
    const norm = 1 / Math.sqrt(8)
    // Runs of samples in which no line or diffuser pointer wraps: the inner loop has no wrap tests.
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
        const xl = inL[i]!
        const xr = inR[i]!
        const fl = xl * feed
        const fr = xr * feed
        // Two Schroeder allpasses per channel smear the input before it enters the network.
        let d = mem[q0]!
        let v = fl + G * d
        mem[q0++] = v
        let u = d - G * v
        d = mem[q1]!
        v = u + G * d
        mem[q1++] = v
        const dl = (d - G * v) * 0.5
        d = mem[q2]!
        v = fr + G * d
        mem[q2++] = v
        u = d - G * v
        d = mem[q3]!
        v = u + G * d
        mem[q3++] = v
        const dr = (d - G * v) * 0.5
        // Read, damp (one-pole lowpass) and decay every line.
        s0 += k * (mem[p0]! - s0)
        s1 += k * (mem[p1]! - s1)
        s2 += k * (mem[p2]! - s2)
        s3 += k * (mem[p3]! - s3)
        s4 += k * (mem[p4]! - s4)
        s5 += k * (mem[p5]! - s5)
        s6 += k * (mem[p6]! - s6)
        s7 += k * (mem[p7]! - s7)
        const v0 = s0 * g0,
          v1 = s1 * g1,
          v2 = s2 * g2,
          v3 = s3 * g3,
          v4 = s4 * g4,
          v5 = s5 * g5,
          v6 = s6 * g6,
          v7 = s7 * g7
        const yl = v0 + v2 + v4 + v6
        const yr = v1 + v3 + v5 + v7
        // 8-point fast Walsh–Hadamard transform: orthogonal (after norm) feedback mixing.
        const b0 = v0 + v1,
          b1 = v0 - v1,
          b2 = v2 + v3,
          b3 = v2 - v3,
          b4 = v4 + v5,
          b5 = v4 - v5,
          b6 = v6 + v7,
          b7 = v6 - v7
        const c0 = b0 + b2,
          c2 = b0 - b2,
          c1 = b1 + b3,
          c3 = b1 - b3,
          c4 = b4 + b6,
          c6 = b4 - b6,
          c5 = b5 + b7,
          c7 = b5 - b7
        // Left feeds even lines, right odd lines.
        mem[p0] = (c0 + c4) * norm + dl
        mem[p4] = (c0 - c4) * norm + dl
        mem[p1] = (c1 + c5) * norm + dr
        mem[p5] = (c1 - c5) * norm + dr
        mem[p2] = (c2 + c6) * norm + dl
        mem[p6] = (c2 - c6) * norm + dl
        mem[p3] = (c3 + c7) * norm + dr
        mem[p7] = (c3 - c7) * norm + dr
        p0++
        p1++
        p2++
        p3++
        p4++
        p5++
        p6++
        p7++
        outL[i] = xl + wet * yl * 0.5
        outR[i] = xr + wet * yr * 0.5
      }
      if (p0 === n0) p0 = o0
      if (p1 === n1) p1 = o1
      if (p2 === n2) p2 = o2
      if (p3 === n3) p3 = o3
      if (p4 === n4) p4 = o4
      if (p5 === n5) p5 = o5
      if (p6 === n6) p6 = o6
      if (p7 === n7) p7 = o7
      if (q0 === m0) q0 = e0
      if (q1 === m1) q1 = e1
      if (q2 === m2) q2 = e2
      if (q3 === m3) q3 = e3
    }
    pos[0] = p0 - o0
    pos[1] = p1 - o1
    pos[2] = p2 - o2
    pos[3] = p3 - o3
    pos[4] = p4 - o4
    pos[5] = p5 - o5
    pos[6] = p6 - o6
    pos[7] = p7 - o7
    // Per block, not per sample: once the tail is below the floor the damping states reach exact 0,
    // and from then on the lines only receive exact zeros (silence in stays silence out).
    dm[0] = flush(s0)
    dm[1] = flush(s1)
    dm[2] = flush(s2)
    dm[3] = flush(s3)
    dm[4] = flush(s4)
    dm[5] = flush(s5)
    dm[6] = flush(s6)
    dm[7] = flush(s7)
    dp[0] = q0 - e0
    dp[1] = q1 - e1
    dp[2] = q2 - e2
    dp[3] = q3 - e3
    if (dm[0] === 0 && dm[1] === 0 && dm[2] === 0 && dm[3] === 0 && dm[4] === 0 && dm[5] === 0 && dm[6] === 0 && dm[7] === 0) {
      // The tail has rung out below −400 dB. Once the input has also been silent for longer than
      // the network's longest path, the lines hold only sub-floor residue: clear it so the tail
      // ends in exact zeros instead of float32 subnormals (slow, and never quite silent).
      let silent = true
      for (let i = 0; i < frames && silent; i++) if (inL[i] !== 0 || inR[i] !== 0) silent = false
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
