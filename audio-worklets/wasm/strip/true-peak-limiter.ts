// The player's look-ahead true-peak limiter (linked channels): kernels/true-peak-limiter.ts in the
// same order of operations. Per frame: the true peak of the newest samples (BS.1770-4 Annex 2's
// 4x interpolating FIR, two phases per f64x2), the gain that peak needs, its sliding minimum over
// the look-ahead window, released upward by a one-pole glide, then averaged over the look-ahead,
// applied to the delayed input. Stereo; everything allocated by the constructor.
import { onePoleCoefficient } from './smoothing'
import { allocate } from './stereo'

const TAPS: i32 = 12
const FILTER_SPAN: i32 = 16
const CEILING_MARGIN_DB: f64 = 0.05
const CHANNELS: i32 = 2

// The four 12-tap phases, stored as pairs (phase 0, phase 1) and (phase 2, phase 3) per tap.
const PHASE0: StaticArray<f64> = [
  0.001708984375, 0.010986328125, -0.0196533203125, 0.033203125, -0.0594482421875, 0.1373291015625, 0.97216796875, -0.102294921875,
  0.047607421875, -0.026611328125, 0.014892578125, -0.00830078125,
]
const PHASE1: StaticArray<f64> = [
  -0.0291748046875, 0.029296875, -0.0517578125, 0.089111328125, -0.16650390625, 0.465087890625, 0.77978515625, -0.2003173828125,
  0.1015625, -0.0582275390625, 0.0330810546875, -0.0189208984375,
]

export class TruePeakLimiter {
  latencyFrames: i32
  ceiling: f64
  lookahead: i32
  window: i32
  release: f64
  /** Per channel: the last TAPS inputs twice over (a FIR window is one contiguous run), f64. */
  history: usize
  historyAt: i32 = 0
  /** Per channel: the delay line, f32. */
  delay: usize
  delayAt: i32 = 0
  minIndex: usize
  minGain: usize
  minHead: i32 = 0
  minTail: i32 = 0
  frame: f64 = 0
  box: usize
  boxAt: i32 = 0
  released: f64 = 1
  sum: f64 = 0
  lowest: f64 = 1
  /** The taps as f64x2 pairs: [k] = (phase0[k], phase1[k]), [TAPS + k] = (phase2[k], phase3[k]). */
  taps: usize

  constructor(sampleRate: f64, ceilingDb: f64, lookaheadSeconds: f64, releaseSeconds: f64) {
    this.ceiling = Math.pow(10, (ceilingDb - CEILING_MARGIN_DB) / 20)
    const lookahead = max(1, <i32>Math.round(lookaheadSeconds * sampleRate))
    this.lookahead = lookahead
    this.window = lookahead + FILTER_SPAN
    const latency = lookahead + FILTER_SPAN / 2
    this.latencyFrames = latency
    this.release = onePoleCoefficient(releaseSeconds, sampleRate)
    this.history = allocate(<usize>(CHANNELS * 2 * TAPS) << 3)
    this.delay = allocate(<usize>(CHANNELS * latency) << 2)
    this.minIndex = allocate(<usize>(lookahead + FILTER_SPAN + 1) << 3)
    this.minGain = allocate(<usize>(lookahead + FILTER_SPAN + 1) << 3)
    const box = allocate(<usize>lookahead << 3)
    for (let k = 0; k < lookahead; k++) store<f64>(box + (<usize>k << 3), 1)
    this.box = box
    this.sum = <f64>lookahead
    // Phases 2 and 3 are phases 1 and 0 reversed (the filter is symmetric).
    const taps = allocate(<usize>(2 * TAPS) << 4)
    for (let k = 0; k < TAPS; k++) {
      v128.store(taps + (<usize>k << 4), f64x2(unchecked(PHASE0[k]), unchecked(PHASE1[k])))
      v128.store(taps + (<usize>(TAPS + k) << 4), f64x2(unchecked(PHASE1[TAPS - 1 - k]), unchecked(PHASE0[TAPS - 1 - k])))
    }
    this.taps = taps
  }

  takeLowestGain(): f64 {
    const g = this.lowest
    this.lowest = 1
    return g
  }

  /** `frames` frames from planar (inL, inR) into (outL, outR); the outputs may be the inputs. */
  process(inL: usize, inR: usize, outL: usize, outR: usize, frames: i32): void {
    const size = this.window + 1
    const taps = this.taps
    for (let i = 0; i < frames; i++) {
      let peak: f64 = 0
      const h = this.historyAt
      for (let c = 0; c < CHANNELS; c++) {
        const x = <f64>load<f32>((c == 0 ? inL : inR) + (<usize>i << 2))
        const hist = this.history + (<usize>(c * 2 * TAPS) << 3)
        store<f64>(hist + (<usize>h << 3), x)
        store<f64>(hist + (<usize>(h + TAPS) << 3), x)
        const a = Math.abs(x)
        if (a > peak) peak = a
        let y01 = f64x2.splat(0)
        let y23 = f64x2.splat(0)
        for (let k = 0; k < TAPS; k++) {
          const v = f64x2.splat(load<f64>(hist + (<usize>(h + 1 + k) << 3)))
          y01 = f64x2.add(y01, f64x2.mul(v128.load(taps + (<usize>k << 4)), v))
          y23 = f64x2.add(y23, f64x2.mul(v128.load(taps + (<usize>(TAPS + k) << 4)), v))
        }
        const p0 = Math.abs(f64x2.extract_lane(y01, 0))
        if (p0 > peak) peak = p0
        const p1 = Math.abs(f64x2.extract_lane(y01, 1))
        if (p1 > peak) peak = p1
        const p2 = Math.abs(f64x2.extract_lane(y23, 0))
        if (p2 > peak) peak = p2
        const p3 = Math.abs(f64x2.extract_lane(y23, 1))
        if (p3 > peak) peak = p3
      }
      this.historyAt = (h + 1) % TAPS
      const needed = peak > this.ceiling ? this.ceiling / peak : 1

      // Sliding minimum over the last `window` frames: a monotonic queue in a ring.
      const minIndex = this.minIndex
      const minGain = this.minGain
      while (this.minTail != this.minHead && load<f64>(minGain + (<usize>((this.minTail - 1 + size) % size) << 3)) >= needed)
        this.minTail = (this.minTail - 1 + size) % size
      store<f64>(minIndex + (<usize>this.minTail << 3), this.frame)
      store<f64>(minGain + (<usize>this.minTail << 3), needed)
      this.minTail = (this.minTail + 1) % size
      while (load<f64>(minIndex + (<usize>this.minHead << 3)) <= this.frame - <f64>this.window) this.minHead = (this.minHead + 1) % size
      const floor = load<f64>(minGain + (<usize>this.minHead << 3))
      this.frame++

      const before = this.released
      const released = floor < before ? floor : before + (floor - before) * this.release
      this.released = released
      const slot = this.box + (<usize>this.boxAt << 3)
      const sum = this.sum + released - load<f64>(slot)
      this.sum = sum
      store<f64>(slot, released)
      this.boxAt = (this.boxAt + 1) % this.lookahead
      let gain = sum / <f64>this.lookahead
      if (gain > 1) gain = 1
      if (gain < this.lowest) this.lowest = gain

      const d = this.delayAt
      for (let c = 0; c < CHANNELS; c++) {
        const line = this.delay + (<usize>(c * this.latencyFrames + d) << 2)
        const delayed = <f64>load<f32>(line)
        const o = <usize>i << 2
        store<f32>(line, load<f32>((c == 0 ? inL : inR) + o))
        store<f32>((c == 0 ? outL : outR) + o, <f32>(delayed * gain))
      }
      this.delayAt = (d + 1) % this.latencyFrames
    }
    // Rounding in the running sum must not drift: rebuild it now and then.
    if (this.frame % 65536 < <f64>frames) {
      let sum: f64 = 0
      for (let k = 0; k < this.lookahead; k++) sum += load<f64>(this.box + (<usize>k << 3))
      this.sum = sum
    }
  }
}
