/**
 * The remix tools (Auto Tune, Harmonize) over whole channel arrays, for the export's worker: the
 * RemixToolsChain driven quantum by quantum by the very functions the AudioWorkletProcessor uses
 * (audio-worklets/remix-tools-quantum.ts), with the controls rounded to float32 as AudioParams
 * hold them, so the result equals the worklet's output in an offline context sample for sample.
 *
 *   renderRemixTools(channels, controls, sampleRate, length?) → [left, right]
 *     channels: 1 (duplicated, as the worklet's input up-mix does) or 2, at sampleRate
 *     controls: every control, in AudioParam units (remix-tools-params.ts)
 *     length: frames to render (default: the input's); past the input the tools get silence
 */
import { RemixToolsChain } from '../audio-worklets/remix-tools-chain.ts'
import { REMIX_TOOLS_PARAM_NAMES, type RemixToolsControls } from '../audio-worklets/remix-tools-params.ts'
import { processRemixToolsQuantum, setRemixToolControls } from '../audio-worklets/remix-tools-quantum.ts'
import { RENDER_QUANTUM_FRAMES } from '../audio-worklets/render-quantum.ts'

export function renderRemixTools(
  channels: readonly Float32Array[],
  controls: Readonly<RemixToolsControls>,
  sampleRate: number,
  length = channels[0]?.length ?? 0,
): [Float32Array, Float32Array] {
  const srcL = channels[0]
  const srcR = channels[1] ?? srcL
  if (!srcL || !srcR || channels.length > 2) throw new RangeError('The remix tools take 1 or 2 channels')
  if (srcR.length !== srcL.length) throw new RangeError('The channels differ in length')
  if (!Number.isInteger(length) || length < 0) throw new RangeError(`length must be a whole number of frames, got ${length}`)

  const chain = new RemixToolsChain(sampleRate)
  const parameters: Record<string, Float32Array> = {}
  for (const name of REMIX_TOOLS_PARAM_NAMES) parameters[name] = Float32Array.of(controls[name])
  setRemixToolControls(chain, parameters)
  chain.snap()

  const Q = RENDER_QUANTUM_FRAMES
  const inL = new Float32Array(Q),
    inR = new Float32Array(Q)
  const l = new Float32Array(Q),
    r = new Float32Array(Q)
  const left = new Float32Array(length),
    right = new Float32Array(length)
  const available = srcL.length
  // Whole quanta, as the offline context renders them; the last one is cut to `length` on output.
  for (let pos = 0; pos < length; pos += Q) {
    const n = Math.max(0, Math.min(Q, available - pos))
    if (n < Q) {
      inL.fill(0)
      inR.fill(0)
    }
    // Element copies, not subarray views: a view per quantum is garbage the GC must chase.
    for (let k = 0; k < n; k++) {
      inL[k] = srcL[pos + k]!
      inR[k] = srcR[pos + k]!
    }
    if (n > 0) processRemixToolsQuantum(chain, inL, inR, l, r, Q)
    else processRemixToolsQuantum(chain, undefined, undefined, l, r, Q)
    const m = Math.min(Q, length - pos)
    for (let k = 0; k < m; k++) {
      left[pos + k] = l[k]!
      right[pos + k] = r[k]!
    }
  }
  return [left, right]
}
