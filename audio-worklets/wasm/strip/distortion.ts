// Waveshaping distortion at 2x the sample rate: kernels/distortion.ts and kernels/halfband.ts
// (polyphase Kaiser halfband up/down FIR, Padé soft clip with a branch-free ±3 clamp, level
// compensation 1/√drive, crossfaded bypass), both channels in one f64x2 and in the same order of
// operations, so the two agree to the last bit wherever their Math functions do.
import { Smoother, IdleGate } from './smoothing'
import { allocate, flush2, loadFrame, splat, storeFrame } from './stereo'

export const ODD_TAPS: i32 = 16
const P: i32 = ODD_TAPS / 2
const KAISER_BETA: f64 = 6
export const MAX_DRIVE_DB: f64 = 36
const CHUNK: i32 = 128
const HIST: i32 = ODD_TAPS - 1
/** One history: HIST frames carried over, then a chunk; each frame an f64x2 (16 bytes). */
const HISTORY_BYTES: usize = <usize>(HIST + CHUNK) << 4

function besselI0(x: f64): f64 {
  let sum: f64 = 1
  let term: f64 = 1
  for (let k = 1; k < 50; k++) {
    term *= (x / (2 * k)) * (x / (2 * k))
    sum += term
    if (term < 1e-12 * sum) break
  }
  return sum
}

export function driveForAmount(amount: f64): f64 {
  const a = Math.min(100, Math.max(0, amount))
  return Math.pow(10, ((a / 100) * MAX_DRIVE_DB) / 20)
}

/** 0.5·(|a+3| − |a−3|) = clamp(a, −3, 3), then x(27 + x²)/(27 + 9x²). */
@inline function shape(a: v128): v128 {
  const three = f64x2.splat(3)
  const c = f64x2.mul(f64x2.splat(0.5), f64x2.sub(f64x2.abs(f64x2.add(a, three)), f64x2.abs(f64x2.sub(a, three))))
  const c2 = f64x2.mul(c, c)
  return f64x2.div(f64x2.mul(c, f64x2.add(f64x2.splat(27), c2)), f64x2.add(f64x2.splat(27), f64x2.mul(f64x2.splat(9), c2)))
}

@inline function at(h: usize, k: i32): v128 {
  return v128.load(h + (<usize>k << 4))
}

export class Distortion {
  drive: Smoother
  mix: Smoother
  gate: IdleGate = new IdleGate()
  t0: f64 = 0
  t1: f64 = 0
  t2: f64 = 0
  t3: f64 = 0
  t4: f64 = 0
  t5: f64 = 0
  t6: f64 = 0
  t7: f64 = 0
  up: usize
  downOdd: usize
  downEven: usize
  /** Per-frame drive, output gain and mix while a control glides; the wet frames (float32 pairs). */
  drives: usize
  gains: usize
  mixes: usize
  wet: usize

  constructor(sampleRate: f64) {
    this.drive = new Smoother(driveForAmount(0), sampleRate)
    this.mix = new Smoother(0, sampleRate)
    this.up = allocate(HISTORY_BYTES)
    this.downOdd = allocate(HISTORY_BYTES)
    this.downEven = allocate(HISTORY_BYTES)
    this.drives = allocate(<usize>CHUNK << 3)
    this.gains = allocate(<usize>CHUNK << 3)
    this.mixes = allocate(<usize>CHUNK << 3)
    this.wet = allocate(<usize>CHUNK << 3)
    // halfbandOddTaps(): the odd taps of a Kaiser-windowed halfband lowpass, DC gain exactly 1.
    const taps = allocate(<usize>ODD_TAPS << 3)
    const half = 2 * P - 1
    const denom = besselI0(KAISER_BETA)
    let sum: f64 = 0
    for (let j = 0; j < ODD_TAPS; j++) {
      const k = <f64>(2 * (j - P) + 1)
      const sinc = Math.sin((Math.PI * k) / 2) / ((Math.PI * k) / 2)
      const r = k / <f64>(half + 1)
      const w = besselI0(KAISER_BETA * Math.sqrt(Math.max(0, 1 - r * r))) / denom
      const t = 0.5 * sinc * w
      store<f64>(taps + (<usize>j << 3), t)
      sum += t
    }
    for (let j = 0; j < ODD_TAPS; j++) store<f64>(taps + (<usize>j << 3), (load<f64>(taps + (<usize>j << 3)) * 0.5) / sum)
    this.t0 = load<f64>(taps, 0)
    this.t1 = load<f64>(taps, 8)
    this.t2 = load<f64>(taps, 16)
    this.t3 = load<f64>(taps, 24)
    this.t4 = load<f64>(taps, 32)
    this.t5 = load<f64>(taps, 40)
    this.t6 = load<f64>(taps, 48)
    this.t7 = load<f64>(taps, 56)
  }

  setAmount(amount: f64): void {
    if (!isFinite<f64>(amount)) return
    const a = Math.min(100, Math.max(0, amount))
    if (a > 0) this.drive.setTarget(driveForAmount(a))
    this.mix.setTarget(a > 0 ? 1 : 0)
  }

  snap(): void {
    this.drive.snap(this.drive.target)
    this.mix.snap(this.mix.target)
  }

  active(): bool {
    const g = this.gate.check(this.mix)
    if (g < 0) this.reset()
    return g > 0
  }

  reset(): void {
    memory.fill(this.up, 0, HISTORY_BYTES)
    memory.fill(this.downOdd, 0, HISTORY_BYTES)
    memory.fill(this.downEven, 0, HISTORY_BYTES)
  }

  /** The halfband FIR over h[p .. p+15] (symmetric taps). */
  @inline fir(h: usize, p: i32): v128 {
    let s = f64x2.mul(splat(this.t0), f64x2.add(at(h, p), at(h, p + 15)))
    s = f64x2.add(s, f64x2.mul(splat(this.t1), f64x2.add(at(h, p + 1), at(h, p + 14))))
    s = f64x2.add(s, f64x2.mul(splat(this.t2), f64x2.add(at(h, p + 2), at(h, p + 13))))
    s = f64x2.add(s, f64x2.mul(splat(this.t3), f64x2.add(at(h, p + 3), at(h, p + 12))))
    s = f64x2.add(s, f64x2.mul(splat(this.t4), f64x2.add(at(h, p + 4), at(h, p + 11))))
    s = f64x2.add(s, f64x2.mul(splat(this.t5), f64x2.add(at(h, p + 5), at(h, p + 10))))
    s = f64x2.add(s, f64x2.mul(splat(this.t6), f64x2.add(at(h, p + 6), at(h, p + 9))))
    return f64x2.add(s, f64x2.mul(splat(this.t7), f64x2.add(at(h, p + 7), at(h, p + 8))))
  }

  /**
   * Upsample, shape both phases, downsample `n` frames read at `input` and written (float32 pairs)
   * to `output`. `varying`: per-frame drive and gain from this.drives/this.gains, else `drive`/`gain`.
   */
  @inline shapeChunk(input: usize, output: usize, n: i32, drive: f64, gain: f64, varying: bool): void {
    const h = this.up
    const w = this.downOdd
    const e = this.downEven
    for (let i = 0; i < n; i++) v128.store(h + (<usize>(HIST + i) << 4), loadFrame(input + (<usize>i << 3)))
    let g = splat(drive)
    for (let i = 0; i < n; i++) {
      if (varying) g = splat(load<f64>(this.drives + (<usize>i << 3)))
      const odd = f64x2.mul(splat(2), this.fir(h, i))
      const ae = f64x2.mul(g, at(h, i + HIST - P))
      const ao = f64x2.mul(g, odd)
      v128.store(w + (<usize>(HIST + i) << 4), shape(ao))
      v128.store(e + (<usize>(HIST + i) << 4), shape(ae))
    }
    let k = splat(gain)
    for (let i = 0; i < n; i++) {
      if (varying) k = splat(load<f64>(this.gains + (<usize>i << 3)))
      const y = f64x2.add(this.fir(w, i), f64x2.mul(splat(0.5), at(e, i + HIST - P + 1)))
      storeFrame(output + (<usize>i << 3), f64x2.mul(k, y))
    }
    const bytes = <usize>HIST << 4
    const shift = <usize>n << 4
    memory.copy(h, h + shift, bytes)
    memory.copy(w, w + shift, bytes)
    memory.copy(e, e + shift, bytes)
  }

  process(io: usize, frames: i32): void {
    const drive = this.drive
    const mix = this.mix
    // Read before moving() may snap it, as the JS kernel does.
    const g = drive.value
    const comp = 1 / Math.sqrt(g)
    const steady = !drive.moving() && !mix.moving() && mix.value == 1
    if (steady) {
      for (let start = 0; start < frames; start += CHUNK) {
        const p = io + (<usize>start << 3)
        this.shapeChunk(p, p, min(CHUNK, frames - start), g, comp, false)
      }
      return
    }
    for (let start = 0; start < frames; start += CHUNK) {
      const n = min(CHUNK, frames - start)
      for (let i = 0; i < n; i++) {
        const gi = drive.next()
        store<f64>(this.drives + (<usize>i << 3), gi)
        store<f64>(this.gains + (<usize>i << 3), 1 / Math.sqrt(gi))
        store<f64>(this.mixes + (<usize>i << 3), mix.next())
      }
      const p = io + (<usize>start << 3)
      this.shapeChunk(p, this.wet, n, 0, 0, true)
      for (let i = 0; i < n; i++) {
        const m = splat(load<f64>(this.mixes + (<usize>i << 3)))
        const q = p + (<usize>i << 3)
        const x = loadFrame(q)
        const y = loadFrame(this.wet + (<usize>i << 3))
        storeFrame(q, flush2(f64x2.add(x, f64x2.mul(m, f64x2.sub(y, x)))))
      }
    }
  }
}
