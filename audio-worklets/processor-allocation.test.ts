/**
 * The audio thread allocates nothing: each processor runs here in Node, in a stubbed
 * AudioWorkletGlobalScope (registerProcessor, sampleRate, currentFrame, a port that counts posts),
 * for tens of thousands of render quanta with every effect working, and the measured stretch must
 * show no typed array or buffer constructed (the globals are wrapped in counting proxies while it
 * runs), no garbage collection and a flat heap. A processor that made one small object per quantum
 * would add over a megabyte here; the recorder's old block-per-message transport made 16 KB every
 * 32 quanta.
 */
import { readFileSync } from 'node:fs'
import { GCProfiler } from 'node:v8'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SampleRing } from './sample-ring.ts'
import { RECORDER_PROCESSOR, type RecorderOptions } from './recorder-params.ts'
import { ChannelStripChain } from './channel-strip-chain.ts'
import { CHANNEL_STRIP_PROCESSOR, STRIP_PARAM_DESCRIPTORS, STRIP_PARAM_NAMES } from './channel-strip-params.ts'
import { stripModule } from './strip-module.node.ts'
import { REMIX_VOICE_PROCESSOR, LAYER_PARAM_DESCRIPTORS, type RemixVoiceOptions } from './remix-voice-params.ts'
import { REMIX_TOOLS_PARAM_DESCRIPTORS } from './remix-tools-params.ts'
import { RENDER_QUANTUM_FRAMES as Q } from './render-quantum.ts'
import { TRUE_PEAK_LIMITER_PROCESSOR } from './true-peak-limiter-params.ts'
import { CONVOLUTION_REVERB_PROCESSOR, type ConvolutionReverbProcessorOptions } from './convolution-reverb-params.ts'

const SR = 48_000
// 20,000 measured quanta (53 s of audio) keep a per-quantum object of 32 bytes at 640 KB, far
// above the slack, at 4/7 of the former 70,000 quanta's time. (With 10,000 warm-up quanta the
// recorder still made one array in the measured stretch.)
const WARM_UP_QUANTA = 20_000
const MEASURED_QUANTA = 20_000
/** Flat means below this over the whole measured stretch: under 2 bytes a quantum. */
const HEAP_SLACK_BYTES = 96 * 1024

interface StubPort {
  posts: number
  onmessage: ((e: { data: unknown }) => void) | null
  postMessage(): void
}

type Processor = {
  port: StubPort
  process(inputs: Float32Array[][], outputs: Float32Array[][], parameters: Record<string, Float32Array>): boolean
}
type ProcessorClass = new (options: { processorOptions?: unknown }) => Processor

const registered = new Map<string, ProcessorClass>()
const scope = globalThis as unknown as Record<string, unknown>

beforeAll(async () => {
  scope.sampleRate = SR
  scope.currentFrame = 0
  scope.AudioWorkletProcessor = class {
    readonly port: StubPort = {
      posts: 0,
      onmessage: null,
      postMessage() {
        this.posts++
      },
    }
  }
  scope.registerProcessor = (name: string, cls: ProcessorClass) => registered.set(name, cls)
  // Imported by computed path, so the Node type check does not pull in the AudioWorklet-typed files.
  for (const file of [
    './recorder-processor.ts',
    './channel-strip-processor.ts',
    './remix-voice-processor.ts',
    './true-peak-limiter-processor.ts',
    './convolution-reverb-processor.ts',
  ])
    await import(/* @vite-ignore */ file)
})

afterAll(() => {
  for (const name of ['sampleRate', 'currentFrame', 'AudioWorkletProcessor', 'registerProcessor']) delete scope[name]
})

const COUNTED = [
  'Float32Array',
  'Float64Array',
  'Int32Array',
  'Uint8Array',
  'ArrayBuffer',
  'SharedArrayBuffer',
  'Array',
  'Map',
  'Set',
] as const

/** Runs `body` with the global constructors replaced by proxies that count `new` on them. */
function countingConstructions(body: () => void): number {
  let count = 0
  const originals = COUNTED.map((name) => [name, scope[name]] as const)
  for (const [name, ctor] of originals) {
    scope[name] = new Proxy(ctor as new (...args: unknown[]) => object, {
      construct(target, args, newTarget) {
        count++
        return Reflect.construct(target, args, newTarget === scope[name] ? target : newTarget)
      },
    })
  }
  try {
    body()
  } finally {
    for (const [name, ctor] of originals) scope[name] = ctor
  }
  return count
}

interface Measurement {
  constructed: number
  garbageCollections: number
  heapGrowth: number
  posts: number
}

/**
 * Where only constructions are counted (no heap or GC check), a shorter run does: every path of a
 * processor runs within a few seconds of audio, and counting proxies make each quantum slow.
 */
const CONSTRUCTIONS_ONLY = { warmUp: 2_000, measured: 6_000 }

/**
 * A stretch may be measured again, up to this many times in all, when its heap grew or a
 * collection ran: on a loaded machine V8 may finish optimising a function late, and that one-off
 * allocation lands in whichever stretch it falls in. An allocation made by the processor's work
 * recurs in every stretch, so it still fails (the JavaScript control below proves it).
 */
const STRETCHES = 5

const flat = (m: Measurement) => m.garbageCollections === 0 && m.heapGrowth < HEAP_SLACK_BYTES

/** Warms the processor up (JIT, lazily built state), then measures a long run of quanta. */
function measure(
  processor: Processor,
  inputs: Float32Array[][],
  outputs: Float32Array[][],
  parameters: Record<string, Float32Array>,
  quanta = { warmUp: WARM_UP_QUANTA, measured: MEASURED_QUANTA },
): Measurement {
  const step = () => {
    processor.process(inputs, outputs, parameters)
    scope.currentFrame = (scope.currentFrame as number) + Q
  }
  for (let q = 0; q < quanta.warmUp; q++) step()
  const first = measureStretch(processor, step, quanta.measured)
  let m = first
  for (let again = 1; again < STRETCHES && m.constructed === 0 && !flat(m); again++) m = measureStretch(processor, step, quanta.measured)
  // The posts are the first stretch's, whose quanta the callers count from.
  return { ...m, posts: first.posts }
}

function measureStretch(processor: Processor, step: () => void, quanta: number): Measurement {
  const postsBefore = processor.port.posts
  const gc = new GCProfiler()
  let heapGrowth = 0
  gc.start()
  const constructed = countingConstructions(() => {
    const before = process.memoryUsage().heapUsed
    for (let q = 0; q < quanta; q++) step()
    heapGrowth = process.memoryUsage().heapUsed - before
  })
  const garbageCollections = gc.stop()?.statistics.length ?? 0
  return { constructed, garbageCollections, heapGrowth, posts: processor.port.posts - postsBefore }
}

function expectNoAllocation(m: Measurement) {
  expect(m.constructed).toBe(0)
  expect(m.garbageCollections).toBe(0)
  expect(m.heapGrowth).toBeLessThan(HEAP_SLACK_BYTES)
}

/** k-rate parameters as the browser hands them: one value each, every control away from neutral. */
function parameters(descriptors: readonly { name: string; minValue: number; maxValue: number }[]): Record<string, Float32Array> {
  return Object.fromEntries(descriptors.map((d) => [d.name, Float32Array.of(d.maxValue === 1 ? 1 : (d.minValue + d.maxValue) / 2)]))
}

function noise(frames: number, seed = 1): Float32Array {
  let s = seed
  return Float32Array.from({ length: frames }, () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31
    return (s / 2 ** 31) * 2 - 1
  })
}

/** A voiced tone (two harmonics and a little noise) the pitch tracker locks onto, so every tool works. */
function voiced(frames: number, hz: number): Float32Array {
  const n = noise(frames, hz)
  return Float32Array.from({ length: frames }, (_, i) => {
    const p = (2 * Math.PI * hz * i) / SR
    return 0.5 * Math.sin(p) + 0.2 * Math.sin(2 * p) + 0.01 * n[i]!
  })
}

const quantum = () => new Float32Array(Q)

describe('processors allocate nothing in process() over a long run', () => {
  it('recorder (ring transport): every frame lands in the ring, nothing posted, nothing allocated', () => {
    const Recorder = registered.get(RECORDER_PROCESSOR)!
    const ring = SampleRing.create(2, 4096)
    const recorder = new Recorder({ processorOptions: { channels: 2, blockFrames: 4800, ring: ring.buffer } satisfies RecorderOptions })
    const l = noise(Q, 1)
    const r = noise(Q, 2)
    // The main thread's side, draining as the timer would; outside the count (it is not the audio thread).
    const sink = [new Float32Array(4096), new Float32Array(4096)]
    let drained = 0
    let mismatched = 0
    const inputs = [[l, r]]
    const outputs = [[quantum()]]
    const step = recorder.process.bind(recorder)
    recorder.process = (i, o, p) => {
      const alive = step(i, o, p)
      if (ring.availableRead() >= 2048) {
        // Let the proxies see the consumer's allocation-free read only.
        const n = ring.read(sink, 2048)
        for (let k = 0; k < n; k++) if (sink[0]![k] !== l[(drained + k) % Q] || sink[1]![k] !== r[(drained + k) % Q]) mismatched++
        drained += n
      }
      return alive
    }
    const m = measure(recorder, inputs, outputs, {})
    expectNoAllocation(m)
    expect(m.posts).toBe(0)
    expect(ring.dropped).toBe(0)
    expect(mismatched).toBe(0)
    expect(drained + ring.availableRead()).toBe((WARM_UP_QUANTA + MEASURED_QUANTA) * Q)
  })

  it('recorder (progress tap on a ring of no channels): counts frames without allocating', () => {
    const Recorder = registered.get(RECORDER_PROCESSOR)!
    const ring = SampleRing.create(0, (WARM_UP_QUANTA + MEASURED_QUANTA) * Q)
    const start = scope.currentFrame as number
    const tap = new Recorder({ processorOptions: { capture: false, ring: ring.buffer } satisfies RecorderOptions })
    const m = measure(tap, [[noise(Q)]], [[quantum()]], {})
    expectNoAllocation(m)
    expect(m.posts).toBe(0)
    expect(ring.firstFrame).toBe(start)
    expect(ring.availableRead()).toBe((WARM_UP_QUANTA + MEASURED_QUANTA) * Q)
  })

  it('recorder fallback (messages) does allocate: the measurement sees it', () => {
    const Recorder = registered.get(RECORDER_PROCESSOR)!
    const recorder = new Recorder({ processorOptions: { channels: 2, blockFrames: 4096 } satisfies RecorderOptions })
    const m = measure(recorder, [[noise(Q, 1), noise(Q, 2)]], [[quantum()]], {})
    // A fresh stereo block every 32 quanta (and the array holding it).
    expect(m.constructed).toBeGreaterThanOrEqual(2 * Math.floor(MEASURED_QUANTA / 32))
    expect(m.posts).toBe(Math.floor(MEASURED_QUANTA / 32))
  })

  it("the player's true-peak limiter, limiting all the time: allocates nothing, heap flat", () => {
    const Limiter = registered.get(TRUE_PEAK_LIMITER_PROCESSOR)!
    const limiter = new Limiter({ processorOptions: { ceilingDb: -1, stripModule: stripModule() } })
    // Noise at full scale: every quantum is limited. Its 4x oversampled peak makes each quantum the
    // dearest here, so it measures 10,000 (a 32-byte object a quantum would still leave 320 KB).
    const m = measure(limiter, [[noise(Q, 7), noise(Q, 8)]], [[quantum(), quantum()]], {}, { warmUp: 10_000, measured: 10_000 })
    expectNoAllocation(m)
    expect(m.posts).toBe(0)
  })

  it('convolution reverb (WebAssembly), a 3 s response, every stage busy: allocates nothing, heap flat', () => {
    const Reverb = registered.get(CONVOLUTION_REVERB_PROCESSOR)!
    const module = new WebAssembly.Module(readFileSync(new URL('./wasm/reverb.wasm', import.meta.url)))
    const options: ConvolutionReverbProcessorOptions = { module, left: noise(3 * SR, 11), right: noise(3 * SR, 12) }
    const reverb = new Reverb({ processorOptions: options })
    const m = measure(reverb, [[noise(Q, 13), noise(Q, 14)]], [[quantum(), quantum()]], {}, { warmUp: 10_000, measured: 10_000 })
    expectNoAllocation(m)
    expect(m.posts).toBe(0)
  })

  it('channel strip (strip.wasm), every effect on, metering at 30 Hz: allocates nothing, heap flat', () => {
    const Strip = registered.get(CHANNEL_STRIP_PROCESSOR)!
    const strip = new Strip({ processorOptions: { stripModule: stripModule() } })
    const m = measure(strip, [[noise(Q, 3), noise(Q, 4)]], [[quantum(), quantum()]], parameters(STRIP_PARAM_DESCRIPTORS))
    expectNoAllocation(m)
    // The meter's message object is reused; what the port does with it is the browser's business.
    const windows = (quanta: number) => Math.floor((quanta * Q) / (SR / 30))
    expect(m.posts).toBe(windows(WARM_UP_QUANTA + MEASURED_QUANTA) - windows(WARM_UP_QUANTA))
  })

  it('control: the same strip as JavaScript kernels (the chain the processor ran before) fails the flat-heap check', () => {
    // Proves the measurement can fail on the strip's own work: V8 boxes the doubles the JS kernels
    // pass between calls it did not inline (a HeapNumber each), which strip.wasm does not do.
    const chain = new ChannelStripChain(SR)
    const params = parameters(STRIP_PARAM_DESCRIPTORS)
    const posts = { posts: 0, onmessage: null, postMessage() {} }
    const js: Processor = {
      port: posts,
      process(inputs, outputs, parameters) {
        for (let k = 0; k < STRIP_PARAM_NAMES.length; k++) chain.set(STRIP_PARAM_NAMES[k]!, parameters[STRIP_PARAM_NAMES[k]!]![0]!, k)
        const l = outputs[0]![0]!
        const r = outputs[0]![1]!
        l.set(inputs[0]![0]!)
        r.set(inputs[0]![1]!)
        chain.process(l, r, Q)
        return true
      },
    }
    const m = measure(js, [[noise(Q, 3), noise(Q, 4)]], [[quantum(), quantum()]], params)
    expect(m.constructed).toBe(0)
    expect(m.garbageCollections > 0 || m.heapGrowth >= HEAP_SLACK_BYTES).toBe(true)
  })

  /** The voice with everything working: a looping source, Auto Tune and Harmonize on, a sample layer. */
  function busyVoice(): { voice: Processor; params: Record<string, Float32Array> } {
    const Voice = registered.get(REMIX_VOICE_PROCESSOR)!
    const loop = noise(SR / 4, 9)
    const options: RemixVoiceOptions = {
      source: [voiced(SR, 220), voiced(SR, 233)],
      layers: { drums: { loop, firstBeat: 0.1, period: 0.5 } },
      playing: true,
      position: 0,
    }
    const voice = new Voice({ processorOptions: options })
    // A loop region, so the source never ends however long the run.
    voice.port.onmessage?.({ data: { type: 'loop', start: 0, end: SR / 2 } })
    // Every control away from neutral (tonic 5.5: a control value that is not a small integer).
    return { voice, params: parameters([...REMIX_TOOLS_PARAM_DESCRIPTORS, ...LAYER_PARAM_DESCRIPTORS]) }
  }

  it('remix voice, looping source, Auto Tune and Harmonize on, a layer: constructs no arrays or buffers', () => {
    const { voice, params } = busyVoice()
    const m = measure(voice, [], [[quantum(), quantum()]], params, CONSTRUCTIONS_ONLY)
    expect(m.constructed).toBe(0)
    expect(m.posts).toBeGreaterThan(0)
  })

  it('remix voice, the same: a flat heap, no garbage collection (its kernels run blockwise)', () => {
    const { voice, params } = busyVoice()
    // 10,000 measured quanta: a 32-byte object a quantum would still leave 320 KB.
    const m = measure(voice, [], [[quantum(), quantum()]], params, { warmUp: 10_000, measured: 10_000 })
    expectNoAllocation(m)
    // Position reports reuse one message object.
    expect(m.posts).toBeGreaterThan(0)
  })

  it('control: the voice plus one glide written the old way (a bare field, a double returned) fails the check', () => {
    // Proves the measurement sees what the voice's kernels used to do: a numeric field declared
    // without an initializer is defined as undefined first, so V8 boxes each double stored in it,
    // and a double returned from a call it did not inline is boxed too.
    class Glide {
      private value: number
      private readonly coefficient: number
      constructor() {
        this.value = 0
        this.coefficient = 0.001
      }
      next(target: number): number {
        this.value += this.coefficient * (target - this.value)
        return this.value
      }
    }
    const glide = new Glide()
    const { voice, params } = busyVoice()
    const withGlide: Processor = {
      port: voice.port,
      process(inputs, outputs, parameters) {
        voice.process(inputs, outputs, parameters)
        const l = outputs[0]![0]!
        for (let i = 0; i < l.length; i++) l[i] = l[i]! * glide.next(1 + 0.5 * Math.sin(i))
        return true
      },
    }
    const m = measure(withGlide, [], [[quantum(), quantum()]], params, { warmUp: 10_000, measured: 10_000 })
    expect(m.constructed).toBe(0)
    expect(m.garbageCollections > 0 || m.heapGrowth >= HEAP_SLACK_BYTES).toBe(true)
  })
})
