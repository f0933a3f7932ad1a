/**
 * Channel strip cost in Chromium's OfflineAudioContext: 60 s of stereo noise at 48 kHz through
 *   (a) one channel-strip worklet (strip.wasm), every effect at 50 (volume 50, pan 25),
 *   (a0) the same strip as JavaScript kernels (the processor before strip.wasm: the "before"),
 *   (b) the equivalent native node chain (2 BiquadFilters, WaveShaper 4x, DynamicsCompressor,
 *       Delay+Oscillator chorus, feedback Delay, Convolver with a 2 s impulse, StereoPanner),
 *   (c) the equivalent Tone.js chain on a Tone OfflineContext,
 * then N strips in parallel in one context (one render thread = one core), WebAssembly and JS.
 */
import * as Tone from 'tone'
import { createChannelStrip, loadChannelStrip, STRIP_NEUTRAL } from '../../src/engine/channel-strip.ts'
import { BUTTERWORTH_Q, cutoffForAmount } from '../../audio-worklets/kernels/biquad.ts'
import { compressorSettingsForAmount } from '../../audio-worklets/kernels/compressor.ts'
import { CHORUS_BASE_DELAY_SECONDS, CHORUS_RATE_HZ, chorusSettingsForAmount } from '../../audio-worklets/kernels/chorus.ts'
import { DELAY_STRIP_TIME_SECONDS, delaySettingsForAmount } from '../../audio-worklets/kernels/delay.ts'
import { compensationForDrive, driveForAmount, softClip } from '../../audio-worklets/kernels/distortion.ts'
import { gainForVolume } from '../../audio-worklets/kernels/gain.ts'
import { reverbWetForAmount } from '../../audio-worklets/kernels/reverb.ts'
import type { BenchResult } from '../types.ts'
import { cpuSeconds } from './cpu-time.ts'
import jsStripUrl from './js-strip-processor.ts?worker&url'
import { noiseChannel } from './noise.ts'

const SR = 48000
const SECONDS = 60
const AMOUNT = 50
const STRIP = {
  ...STRIP_NEUTRAL,
  lowpass: 50,
  highpass: 50,
  distortion: 50,
  compression: 50,
  chorus: 50,
  delay: 50,
  reverb: 50,
  volume: 50,
  pan: 25,
}

const noise = [noiseChannel(SECONDS * SR, 0x9e3779b9, 0.5), noiseChannel(SECONDS * SR, 0x7f4a7c15, 0.5)] as const

function noiseBuffer(seconds: number): AudioBuffer {
  const b = new AudioBuffer({ numberOfChannels: 2, length: seconds * SR, sampleRate: SR })
  b.copyToChannel(noise[0].subarray(0, seconds * SR), 0)
  b.copyToChannel(noise[1].subarray(0, seconds * SR), 1)
  return b
}

/** Wall seconds and (when the runner provides it) browser CPU seconds of one render. */
interface Timing {
  wall: number
  cpu: number | null
}

async function measure(render: () => Promise<unknown>): Promise<Timing> {
  const c0 = await cpuSeconds()
  const t0 = performance.now()
  await render()
  const wall = (performance.now() - t0) / 1000
  const c1 = await cpuSeconds()
  return { wall, cpu: c0 === null || c1 === null ? null : c1 - c0 }
}

function timeRender(ctx: OfflineAudioContext): Promise<Timing> {
  return measure(() => ctx.startRendering())
}

async function renderStrips(seconds: number, strips: number, kind: 'wasm' | 'js' = 'wasm'): Promise<Timing> {
  const ctx = new OfflineAudioContext({ numberOfChannels: 2, length: seconds * SR, sampleRate: SR })
  await loadChannelStrip(ctx)
  if (kind === 'js') await ctx.audioWorklet.addModule(jsStripUrl)
  const src = new AudioBufferSourceNode(ctx, { buffer: noiseBuffer(seconds) })
  for (let i = 0; i < strips; i++) {
    // The JS strip: a node of the bench-only processor with the strip's own options and values.
    const node =
      kind === 'wasm'
        ? createChannelStrip(ctx, STRIP).node
        : new AudioWorkletNode(ctx, 'cube-channel-strip-js', {
            outputChannelCount: [2],
            channelCount: 2,
            channelCountMode: 'explicit',
            parameterData: { ...STRIP },
          })
    src.connect(node)
    node.connect(ctx.destination)
  }
  src.start()
  return timeRender(ctx)
}

function shaperCurve(): Float32Array<ArrayBuffer> {
  // The strip's own transfer function (drive, soft clip, level compensation) as a WaveShaper curve.
  const drive = driveForAmount(AMOUNT)
  const comp = compensationForDrive(drive)
  const n = 4096
  const curve = new Float32Array(n)
  for (let i = 0; i < n; i++) curve[i] = softClip(drive * ((2 * i) / (n - 1) - 1)) * comp
  return curve
}

function impulse(ctx: BaseAudioContext, seconds: number): AudioBuffer {
  const b = new AudioBuffer({ numberOfChannels: 2, length: seconds * SR, sampleRate: SR })
  for (let c = 0; c < 2; c++) {
    const d = b.getChannelData(c)
    const n = noiseChannel(d.length, 12345 + c, 0.5)
    for (let i = 0; i < d.length; i++) d[i] = n[i]! * Math.exp((-6.9 * i) / (seconds * SR))
  }
  void ctx
  return b
}

async function renderNative(seconds: number): Promise<Timing> {
  const ctx = new OfflineAudioContext({ numberOfChannels: 2, length: seconds * SR, sampleRate: SR })
  const src = new AudioBufferSourceNode(ctx, { buffer: noiseBuffer(seconds) })
  const q = 20 * Math.log10(BUTTERWORTH_Q) // native lowpass/highpass Q is in dB
  const hp = new BiquadFilterNode(ctx, { type: 'highpass', frequency: cutoffForAmount('highpass', AMOUNT), Q: q })
  const lp = new BiquadFilterNode(ctx, { type: 'lowpass', frequency: cutoffForAmount('lowpass', AMOUNT), Q: q })
  const shaper = new WaveShaperNode(ctx, { curve: shaperCurve(), oversample: '4x' })
  const c = compressorSettingsForAmount(AMOUNT)
  const comp = new DynamicsCompressorNode(ctx, {
    threshold: c.thresholdDb,
    ratio: c.ratio,
    attack: c.attackSeconds,
    release: c.releaseSeconds,
    knee: 0,
  })
  const makeup = new GainNode(ctx, { gain: 10 ** (c.makeupDb / 20) })
  // Chorus: modulated delay, wet/dry.
  const ch = chorusSettingsForAmount(AMOUNT)
  const chorusIn = new GainNode(ctx)
  const chorusDelay = new DelayNode(ctx, { delayTime: CHORUS_BASE_DELAY_SECONDS, maxDelayTime: 0.05 })
  const lfo = new OscillatorNode(ctx, { frequency: CHORUS_RATE_HZ })
  const lfoDepth = new GainNode(ctx, { gain: ch.depthSeconds })
  const chorusWet = new GainNode(ctx, { gain: ch.mix })
  const chorusDry = new GainNode(ctx, { gain: 1 - ch.mix })
  const chorusOut = new GainNode(ctx)
  lfo.connect(lfoDepth).connect(chorusDelay.delayTime)
  chorusIn.connect(chorusDelay).connect(chorusWet).connect(chorusOut)
  chorusIn.connect(chorusDry).connect(chorusOut)
  // Feedback delay.
  const d = delaySettingsForAmount(AMOUNT)
  const echo = new DelayNode(ctx, { delayTime: DELAY_STRIP_TIME_SECONDS, maxDelayTime: 1 })
  const fb = new GainNode(ctx, { gain: d.feedback })
  const echoWet = new GainNode(ctx, { gain: d.wet })
  const delayOut = new GainNode(ctx)
  chorusOut.connect(echo).connect(fb).connect(echo)
  echo.connect(echoWet).connect(delayOut)
  chorusOut.connect(delayOut)
  // Convolution reverb, 2 s impulse.
  const conv = new ConvolverNode(ctx, { buffer: impulse(ctx, 2), disableNormalization: false })
  const revWet = new GainNode(ctx, { gain: reverbWetForAmount(AMOUNT) })
  const revOut = new GainNode(ctx)
  delayOut.connect(conv).connect(revWet).connect(revOut)
  delayOut.connect(revOut)
  const volume = new GainNode(ctx, { gain: gainForVolume(50) })
  const pan = new StereoPannerNode(ctx, { pan: 0.5 })
  src.connect(hp).connect(lp).connect(shaper).connect(comp).connect(makeup).connect(chorusIn)
  revOut.connect(volume).connect(pan).connect(ctx.destination)
  lfo.start()
  src.start()
  return timeRender(ctx)
}

async function renderTone(seconds: number): Promise<Timing> {
  const previous = Tone.getContext()
  const ctx = new Tone.OfflineContext(2, seconds, SR)
  Tone.setContext(ctx)
  try {
    const c = compressorSettingsForAmount(AMOUNT)
    const ch = chorusSettingsForAmount(AMOUNT)
    const d = delaySettingsForAmount(AMOUNT)
    const player = new Tone.Player(new Tone.ToneAudioBuffer(noiseBuffer(seconds)))
    const hp = new Tone.Filter({ type: 'highpass', frequency: cutoffForAmount('highpass', AMOUNT), Q: BUTTERWORTH_Q, rolloff: -12 })
    const lp = new Tone.Filter({ type: 'lowpass', frequency: cutoffForAmount('lowpass', AMOUNT), Q: BUTTERWORTH_Q, rolloff: -12 })
    const dist = new Tone.Distortion({ distortion: AMOUNT / 100, oversample: '4x' })
    const comp = new Tone.Compressor({
      threshold: c.thresholdDb,
      ratio: c.ratio,
      attack: c.attackSeconds,
      release: c.releaseSeconds,
      knee: 0,
    })
    const makeup = new Tone.Gain(10 ** (c.makeupDb / 20))
    const chorus = new Tone.Chorus({
      frequency: CHORUS_RATE_HZ,
      delayTime: CHORUS_BASE_DELAY_SECONDS * 1000,
      depth: 0.5,
      wet: ch.mix,
    }).start()
    const delay = new Tone.FeedbackDelay({ delayTime: DELAY_STRIP_TIME_SECONDS, feedback: d.feedback, wet: d.wet })
    const reverb = new Tone.Reverb({ decay: 2, wet: reverbWetForAmount(AMOUNT) })
    await reverb.ready // impulse generation is set-up, not rendering
    const volume = new Tone.Gain(gainForVolume(50))
    const pan = new Tone.Panner(0.5)
    player.chain(hp, lp, dist, comp, makeup, chorus, delay, reverb, volume, pan, ctx.destination)
    player.start(0)
    return await measure(() => ctx.render(false))
  } finally {
    Tone.setContext(previous)
  }
}

const xrt = (seconds: number, t: number) => seconds / t

const median = (xs: number[]) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)]!

/** Rounds of (a, b, c), interleaved so a burst of load on this shared machine hits all three alike. */
const ROUNDS = 3

export async function run(): Promise<BenchResult[]> {
  // Warm-up (module load, JIT) for each variant; only the 60 s renders below are reported.
  await renderStrips(2, 1)
  await renderStrips(2, 1, 'js')
  await renderNative(2)
  await renderTone(2)

  const as: Timing[] = []
  const a0s: Timing[] = []
  const bs: Timing[] = []
  const cs: Timing[] = []
  for (let r = 0; r < ROUNDS; r++) {
    as.push(await renderStrips(SECONDS, 1))
    a0s.push(await renderStrips(SECONDS, 1, 'js'))
    bs.push(await renderNative(SECONDS))
    cs.push(await renderTone(SECONDS))
  }
  const parallelSeconds = 10
  const N = 32
  const ns = [await renderStrips(parallelSeconds, N), await renderStrips(parallelSeconds, N)]
  const n0s = [await renderStrips(parallelSeconds, N, 'js'), await renderStrips(parallelSeconds, N, 'js')]
  // CPU time when available (robust against other load on a shared machine), else wall time.
  const byCpu = [...as, ...a0s, ...bs, ...cs, ...ns, ...n0s].every((t) => t.cpu !== null && t.cpu > 0)
  const cost = (t: Timing) => (byCpu ? t.cpu! : t.wall)
  const basis = byCpu ? 'browser CPU time' : 'wall time'
  const a = median(as.map(cost))
  const b = median(bs.map(cost))
  const c = median(cs.map(cost))
  const tN = median(ns.map(cost))
  const a0 = median(a0s.map(cost))
  const tN0 = median(n0s.map(cost))
  const fmt = (ts: Timing[]) =>
    `${basis} ${ts.map((t) => cost(t).toFixed(2)).join(' / ')} s; wall ${ts.map((t) => t.wall.toFixed(2)).join(' / ')} s`
  return [
    { name: '(a) channel strip worklet, all effects at 50', value: xrt(SECONDS, a), unit: 'x real time', detail: `median; ${fmt(as)}` },
    { name: '(a0) the same strip as JS kernels (before)', value: xrt(SECONDS, a0), unit: 'x real time', detail: `median; ${fmt(a0s)}` },
    {
      name: 'a/a0 speed ratio',
      value: median(as.map((t, i) => cost(a0s[i]!) / cost(t))),
      unit: 'x',
      detail: 'median per round; >1: strip.wasm is faster than the JS kernels',
    },
    { name: '(b) native node chain', value: xrt(SECONDS, b), unit: 'x real time', detail: fmt(bs) },
    { name: '(c) Tone.js chain', value: xrt(SECONDS, c), unit: 'x real time', detail: `${fmt(cs)}; Tone OfflineContext.render` },
    {
      name: 'a/b speed ratio',
      value: median(as.map((t, i) => cost(bs[i]!) / cost(t))),
      unit: 'x',
      detail: 'median per round; >1: the strip is faster than native nodes',
    },
    {
      name: 'a/c speed ratio',
      value: median(as.map((t, i) => cost(cs[i]!) / cost(t))),
      unit: 'x',
      detail: 'median per round; >1: the strip is faster than Tone.js',
    },
    { name: `${N} strips in parallel, one context`, value: xrt(parallelSeconds, tN), unit: 'x real time', detail: fmt(ns) },
    {
      name: 'full strips in real time on one core',
      value: N * xrt(parallelSeconds, tN),
      unit: 'strips',
      detail: `${N} × the ${N}-strip render's speed (linear extrapolation)`,
    },
    { name: `${N} JS strips in parallel (before)`, value: xrt(parallelSeconds, tN0), unit: 'x real time', detail: fmt(n0s) },
    {
      name: 'full JS strips in real time on one core (before)',
      value: N * xrt(parallelSeconds, tN0),
      unit: 'strips',
      detail: `${N} × the ${N}-strip render's speed (linear extrapolation)`,
    },
  ]
}
