/**
 * The remix render off the main thread: the remix voice (source, tools, layers) and its channel
 * strip (Reverb, Delay, Distortion), quantum by quantum through the very functions the two
 * AudioWorkletProcessors run, so the render equals the preview's offline render of the same state
 * sample for sample (tests/browser/remix-render.test.ts). The caller runs the app's master bus on
 * the result, as the studio export does.
 */
import { WasmChannelStrip } from '../audio-worklets/channel-strip-wasm.ts'
import { STRIP_PARAM_NAMES, type StripParamName } from '../audio-worklets/channel-strip-params.ts'
import { processStripQuantum, setStripControls } from '../audio-worklets/channel-strip-quantum.ts'
import { RemixVoiceChain } from '../audio-worklets/remix-voice-chain.ts'
import { REMIX_VOICE_PARAM_NAMES, type RemixVoiceOptions, type RemixVoiceParamName } from '../audio-worklets/remix-voice-params.ts'
import { processRemixVoiceQuantum, setRemixVoiceControls } from '../audio-worklets/remix-voice-quantum.ts'
import { RENDER_QUANTUM_FRAMES } from '../audio-worklets/render-quantum.ts'

export interface RemixRenderJob {
  sampleRate: number
  /** Frames to render: the source plus the effects' tail. */
  length: number
  voice: Pick<RemixVoiceOptions, 'source' | 'layers'>
  voiceControls: Readonly<Record<RemixVoiceParamName, number>>
  stripControls: Readonly<Record<StripParamName, number>>
  /** strip.wasm, compiled by the page. */
  stripModule: WebAssembly.Module
}

/** Progress about once per second of audio. */
const PROGRESS_QUANTA = 375

/** AudioParams hold float32: one-value arrays round the controls exactly as the node does. */
function asParameters(names: readonly string[], values: Readonly<Record<string, number>>): Record<string, Float32Array> {
  const out: Record<string, Float32Array> = {}
  for (const name of names) out[name] = Float32Array.of(values[name] ?? 0)
  return out
}

export function renderRemix(job: RemixRenderJob, onProgress?: (fraction: number) => void, shouldStop?: () => boolean): Float32Array[] {
  const { sampleRate, length } = job
  if (!Number.isInteger(length) || length <= 0)
    throw new RangeError(`Render length must be a positive whole number of frames, got ${length}`)
  const voice = new RemixVoiceChain(sampleRate, { ...job.voice, playing: true, position: 0 })
  setRemixVoiceControls(voice, asParameters(REMIX_VOICE_PARAM_NAMES, job.voiceControls))
  voice.snap()
  const strip = new WasmChannelStrip(job.stripModule, sampleRate)
  setStripControls(strip, asParameters(STRIP_PARAM_NAMES, job.stripControls))
  strip.snap()

  const Q = RENDER_QUANTUM_FRAMES
  const vl = new Float32Array(Q)
  const vr = new Float32Array(Q)
  const l = new Float32Array(Q)
  const r = new Float32Array(Q)
  const left = new Float32Array(length)
  const right = new Float32Array(length)
  let quanta = 0
  for (let pos = 0; pos < length; pos += Q) {
    processRemixVoiceQuantum(voice, vl, vr, Q)
    processStripQuantum(strip, vl, vr, l, r, Q)
    const n = Math.min(Q, length - pos)
    left.set(n === Q ? l : l.subarray(0, n), pos)
    right.set(n === Q ? r : r.subarray(0, n), pos)
    if (++quanta % PROGRESS_QUANTA === 0) {
      if (shouldStop?.()) throw new DOMException('Render cancelled', 'AbortError')
      onProgress?.(pos / length)
    }
  }
  onProgress?.(1)
  return [left, right]
}
