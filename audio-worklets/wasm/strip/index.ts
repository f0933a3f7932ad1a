// The channel strip in WebAssembly: one instance per strip, all of its state and buffers allocated
// once by init() and never again, so the views JS holds on this memory stay valid. A render
// quantum is one call, whatever its length: process() (input → highpass → lowpass → distortion
// → compression → chorus → delay → reverb on an interleaved block, then fader and pan into the
// output channels); measure() adds it to the meter. Controls are copied into `controls` once per
// quantum and applied by applyControls(); nothing crosses the boundary per sample.
import { Biquad } from './biquad'
import { Chorus } from './chorus'
import { Compressor } from './compressor'
import { Delay } from './delay'
import { Distortion } from './distortion'
import { Fader, Meter, Panner } from './output'
import { Reverb } from './reverb'
import { allocate } from './stereo'
import { TruePeakLimiter } from './true-peak-limiter'

/** The largest quantum a call may pass (Web Audio's is 128). */
export const MAX_FRAMES: i32 = 128
/** Controls in STRIP_PARAM_NAMES order (channel-strip-params.ts). */
const CONTROLS: i32 = 10
const VOLUME = 0
const PAN = 1
const REVERB = 2
const LOWPASS = 3
const HIGHPASS = 4
const DISTORTION = 5
const DELAY = 6
const COMPRESSION = 7
const CHORUS = 8
const ENABLED = 9

let inL: usize = 0
let inR: usize = 0
let outL: usize = 0
let outR: usize = 0
let block: usize = 0
let controlValues: usize = 0
let lastValues: usize = 0
let levelValues: usize = 0

let highpass: Biquad | null = null
let lowpass: Biquad | null = null
let distortion: Distortion | null = null
let compressor: Compressor | null = null
let chorus: Chorus | null = null
let delay: Delay | null = null
let reverb: Reverb | null = null
let fader: Fader | null = null
let panner: Panner | null = null
let meter: Meter | null = null

/** Builds the strip for this sample rate; the meter completes a window every `meterWindowFrames`. */
export function init(sampleRate: f64, meterWindowFrames: f64): void {
  if (highpass) return
  inL = allocate(<usize>MAX_FRAMES << 2)
  inR = allocate(<usize>MAX_FRAMES << 2)
  outL = allocate(<usize>MAX_FRAMES << 2)
  outR = allocate(<usize>MAX_FRAMES << 2)
  block = allocate(<usize>MAX_FRAMES << 3)
  controlValues = allocate(<usize>CONTROLS << 2)
  lastValues = allocate(<usize>CONTROLS << 3)
  for (let k = 0; k < CONTROLS; k++) store<f64>(lastValues + (<usize>k << 3), NaN)
  levelValues = allocate(32)
  highpass = new Biquad(sampleRate, false)
  lowpass = new Biquad(sampleRate, true)
  distortion = new Distortion(sampleRate)
  compressor = new Compressor(sampleRate)
  chorus = new Chorus(sampleRate)
  delay = new Delay(sampleRate)
  reverb = new Reverb(sampleRate)
  fader = new Fader(sampleRate)
  panner = new Panner(sampleRate)
  meter = new Meter(meterWindowFrames, levelValues)
}

export function inputLeft(): usize {
  return inL
}
export function inputRight(): usize {
  return inR
}
export function outputLeft(): usize {
  return outL
}
export function outputRight(): usize {
  return outR
}
/** float32 × 10, the controls in STRIP_PARAM_NAMES order. */
export function controls(): usize {
  return controlValues
}
/** float64 × 4: the last completed meter window's peakL, peakR, rmsL, rmsR. */
export function levels(): usize {
  return levelValues
}

/** Applies every control whose value changed since the last call. */
export function applyControls(): void {
  for (let k = 0; k < CONTROLS; k++) {
    const value = <f64>load<f32>(controlValues + (<usize>k << 2))
    const last = lastValues + (<usize>k << 3)
    if (load<f64>(last) == value || !isFinite<f64>(value)) continue
    store<f64>(last, value)
    if (k == VOLUME) fader!.setVolume(value)
    else if (k == ENABLED) fader!.setEnabled(value >= 0.5)
    else if (k == PAN) panner!.setPan(value)
    else if (k == LOWPASS) lowpass!.setAmount(value)
    else if (k == HIGHPASS) highpass!.setAmount(value)
    else if (k == DISTORTION) distortion!.setAmount(value)
    else if (k == DELAY) delay!.setAmount(value)
    else if (k == COMPRESSION) compressor!.setAmount(value)
    else if (k == CHORUS) chorus!.setAmount(value)
    else if (k == REVERB) reverb!.setAmount(value)
  }
}

/** Every control jumps to its target (before the first quantum, so initial values do not glide in). */
export function snap(): void {
  highpass!.snap()
  lowpass!.snap()
  distortion!.snap()
  compressor!.snap()
  chorus!.snap()
  delay!.snap()
  reverb!.snap()
  fader!.snap()
  panner!.snap()
}

/**
 * One quantum: the input channels (or silence when `hasInput` is 0) through every effect, the
 * fader and the pan, into the output channels.
 */
export function process(frames: i32, hasInput: i32): void {
  effects(frames, hasInput)
  output(frames)
}

/** The input channels (or silence) through the effects and the reverb, into the output channels. */
function effects(frames: i32, hasInput: i32): void {
  const n = min(max(frames, 0), MAX_FRAMES)
  const io = block
  if (hasInput) {
    // Interleave: each effect reads and writes one frame (left, right) as one 64-bit word.
    let i = 0
    for (; i + 4 <= n; i += 4) {
      const o = <usize>i << 2
      const a = v128.load(inL + o)
      const b = v128.load(inR + o)
      v128.store(io + (o << 1), i32x4.shuffle(a, b, 0, 4, 1, 5))
      v128.store(io + (o << 1), i32x4.shuffle(a, b, 2, 6, 3, 7), 16)
    }
    for (; i < n; i++) {
      store<f32>(io + (<usize>i << 3), load<f32>(inL + (<usize>i << 2)))
      store<f32>(io + (<usize>i << 3), load<f32>(inR + (<usize>i << 2)), 4)
    }
  } else {
    memory.fill(io, 0, <usize>n << 3)
  }
  if (highpass!.active()) highpass!.process(io, n)
  if (lowpass!.active()) lowpass!.process(io, n)
  if (distortion!.active()) distortion!.process(io, n)
  if (compressor!.active()) compressor!.process(io, n)
  if (chorus!.active()) chorus!.process(io, n)
  if (delay!.active()) delay!.process(io, n)
  if (reverb!.active()) reverb!.process(io, n)
  let i = 0
  for (; i + 4 <= n; i += 4) {
    const o = <usize>i << 2
    const a = v128.load(io + (o << 1))
    const b = v128.load(io + (o << 1), 16)
    v128.store(outL + o, i32x4.shuffle(a, b, 0, 2, 4, 6))
    v128.store(outR + o, i32x4.shuffle(a, b, 1, 3, 5, 7))
  }
  for (; i < n; i++) {
    store<f32>(outL + (<usize>i << 2), load<f32>(io + (<usize>i << 3)))
    store<f32>(outR + (<usize>i << 2), load<f32>(io + (<usize>i << 3), 4))
  }
}

/** Fader and pan in place on the output channels (after the reverb). */
function output(frames: i32): void {
  const n = min(max(frames, 0), MAX_FRAMES)
  const f = fader!
  const p = panner!
  const faderActive = f.active()
  // Both settled: one pass with the fader's gain folded into the pan gains.
  if (faderActive && p.active() && p.processScaled(outL, outR, n, f.steadyGain())) return
  if (faderActive) f.process(outL, outR, n)
  if (p.active()) p.process(outL, outR, n)
}

/** Adds the output channels to the meter; 1 when a window has just completed (see levels()). */
export function measure(frames: i32): i32 {
  return meter!.add(outL, outR, min(max(frames, 0), MAX_FRAMES)) ? 1 : 0
}

// The player's true-peak limiter: an instance used as a limiter calls limiterInit() instead of init().
let limiter: TruePeakLimiter | null = null
let limiterIn: usize = 0
let limiterOut: usize = 0

/** Builds the limiter; its planar stereo input and output are at limiterInput() and limiterOutput(). */
export function limiterInit(sampleRate: f64, ceilingDb: f64, lookaheadSeconds: f64, releaseSeconds: f64): void {
  if (limiter) return
  limiterIn = allocate(<usize>(2 * MAX_FRAMES) << 2)
  limiterOut = allocate(<usize>(2 * MAX_FRAMES) << 2)
  limiter = new TruePeakLimiter(sampleRate, ceilingDb, lookaheadSeconds, releaseSeconds)
}
/** float32 × 2 × 128: left, then right. */
export function limiterInput(): usize {
  return limiterIn
}
/** float32 × 2 × 128: left, then right. */
export function limiterOutput(): usize {
  return limiterOut
}
export function limiterLatency(): i32 {
  return limiter!.latencyFrames
}
export function limiterProcess(frames: i32): void {
  const n = min(max(frames, 0), MAX_FRAMES)
  const half = <usize>MAX_FRAMES << 2
  limiter!.process(limiterIn, limiterIn + half, limiterOut, limiterOut + half, n)
}
/** The smallest gain applied since the last call, then resets it (1 = no limiting). */
export function limiterTakeLowestGain(): f64 {
  return limiter!.takeLowestGain()
}
