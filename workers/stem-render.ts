/**
 * The studio export's stem renderer: mixer tracks run through channel strips and summed, off the
 * main thread and off the audio thread, so an export can use every core (Chromium renders all
 * offline contexts that hold an AudioWorklet on ONE shared thread per page).
 *
 * Each track runs through a channel strip (strip.wasm, audio-worklets/channel-strip-wasm.ts) driven
 * quantum by quantum by the very functions the AudioWorkletProcessor uses
 * (audio-worklets/channel-strip-quantum.ts), fed what the track's
 * AudioBufferSourceNode would feed the worklet (the caller resolves resampling and channel
 * mixing), so a stem here equals the live graph's strip output sample for sample; only the order
 * of float summation across tracks differs.
 *
 *   const mix = new StemMix(length, sampleRate, stripModule)   stripModule: strip.wasm, compiled
 *   mix.addTrack({ controls, channels, startFrame }, onProgress?)   controls: the strip's values
 *     (AudioParam units, see channel-strip-params.ts); channels: 1 (duplicated, as the worklet's
 *     input up-mix does) or 2, at sampleRate; startFrame: where the source starts on the timeline
 *   mix.left / mix.right   the running sum, `length` frames
 */
import { WasmChannelStrip } from '../audio-worklets/channel-strip-wasm.ts'
import { STRIP_PARAM_NAMES, type StripParamName } from '../audio-worklets/channel-strip-params.ts'
import { setStripControls } from '../audio-worklets/channel-strip-quantum.ts'
import { RENDER_QUANTUM_FRAMES } from '../audio-worklets/render-quantum.ts'
import { clipComposer, type ClipPlay } from './clip-render.ts'

export interface StemTrackJob {
  controls: Readonly<Record<StripParamName, number>>
  channels: Float32Array[]
  startFrame: number
  /**
   * An arranged track: `channels` is its raw audio (at the render rate) and these plays place it;
   * the input is composed here (clip-render.ts) and starts at frame 0. The caller checks
   * clipPlaysExact first; anything else it renders natively and sends as plain channels.
   */
  plays?: ClipPlay[]
}

/** Progress is reported about once per second of audio rendered. */
const PROGRESS_QUANTA = 375

export class StemMix {
  readonly left: Float32Array
  readonly right: Float32Array

  constructor(
    readonly length: number,
    readonly sampleRate: number,
    private readonly stripModule: WebAssembly.Module,
  ) {
    if (!Number.isInteger(length) || length <= 0)
      throw new RangeError(`Stem length must be a positive whole number of frames, got ${length}`)
    if (!(sampleRate >= 3000 && sampleRate <= 768000)) throw new RangeError(`Unsupported sample rate ${sampleRate}`)
    this.left = new Float32Array(length)
    this.right = new Float32Array(length)
  }

  addTrack(job: StemTrackJob, onProgress?: (framesDone: number) => void): void {
    const composer = job.plays ? clipComposer(job.plays, job.channels, this.sampleRate) : null
    if (job.plays && !composer) throw new RangeError('These clips cannot be rendered exactly here; render them natively')
    const srcL = job.channels[0]
    const srcR = job.channels[1] ?? srcL
    if (!srcL || !srcR || job.channels.length > 2) throw new RangeError('A stem track needs 1 or 2 channels')
    if (srcR.length !== srcL.length) throw new RangeError("A stem track's channels differ in length")
    if (!Number.isInteger(job.startFrame)) throw new RangeError(`startFrame must be a whole frame, got ${job.startFrame}`)

    const chain = new WasmChannelStrip(this.stripModule, this.sampleRate)
    // AudioParams hold float32; the record's one-value arrays round exactly as they do.
    const parameters: Record<string, Float32Array> = {}
    for (const name of STRIP_PARAM_NAMES) parameters[name] = Float32Array.of(job.controls[name])
    setStripControls(chain, parameters)
    chain.snap()

    const Q = RENDER_QUANTUM_FRAMES
    const { left, right, length } = this
    // The input is written straight into the strip's memory and its output added straight from
    // there: the same process() the worklet's quantum runs (processStripQuantum), without the two
    // intermediate copies a quantum.
    const inL = chain.inL
    const inR = chain.inR
    const outL = chain.outL
    const outR = chain.outR
    const srcStart = job.startFrame
    const srcEnd = srcStart + srcL.length
    let quanta = 0
    // Whole quanta, as the offline context renders them; the last one is cut to `length` on output.
    for (let pos = 0; pos < length; pos += Q) {
      let input = true
      if (composer) {
        // An arranged track feeds its strip for the whole timeline, silence between its clips
        // included, as the native render of its clips does.
        inL.fill(0)
        inR.fill(0)
        composer.fill(pos, inL, inR)
      } else {
        const from = Math.max(pos, srcStart)
        const to = Math.min(pos + Q, srcEnd)
        input = to > from
        if (input) {
          if (from > pos || to < pos + Q) {
            inL.fill(0)
            inR.fill(0)
          }
          // Element copies, not subarray views: a view per quantum is garbage the GC must chase.
          for (let i = from, k = from - pos, j = from - srcStart; i < to; i++, k++, j++) {
            inL[k] = srcL[j]!
            inR[k] = srcR[j]!
          }
        }
      }
      chain.process(input, Q)
      const n = Math.min(Q, length - pos)
      for (let i = 0; i < n; i++) {
        left[pos + i] = left[pos + i]! + outL[i]!
        right[pos + i] = right[pos + i]! + outR[i]!
      }
      if (onProgress && ++quanta % PROGRESS_QUANTA === 0) onProgress(Math.min(length, pos + Q))
    }
    onProgress?.(length)
  }
}
