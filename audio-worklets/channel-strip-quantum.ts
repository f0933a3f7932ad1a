/**
 * One render quantum of a channel strip, exactly as the AudioWorkletProcessor runs it. The
 * studio export's stem workers (workers/stem-render.ts) call the same functions, so a strip
 * rendered there is sample for sample the strip the live graph plays.
 */
import type { ChannelStripChain } from './channel-strip-chain.ts'
import { STRIP_PARAM_NAMES } from './channel-strip-params.ts'

/**
 * Hands the chain each control's value for this quantum, from the processor's `parameters` record
 * (k-rate: one float32 value per control) or a worker's record of the same shape. Unchanged
 * values cost a comparison.
 */
export function setStripControls(chain: ChannelStripChain, parameters: Readonly<Record<string, Float32Array>>): void {
  for (let k = 0; k < STRIP_PARAM_NAMES.length; k++) {
    const name = STRIP_PARAM_NAMES[k]!
    const values = parameters[name]
    if (values && values.length > 0) chain.set(name, values[0]!, k)
  }
}

/**
 * In place on (l, r): the input copied in (mono already duplicated by the caller: inR = inL), or
 * silence when nothing is connected or playing, then the chain.
 */
export function processStripQuantum(
  chain: ChannelStripChain,
  inL: Float32Array | undefined,
  inR: Float32Array | undefined,
  l: Float32Array,
  r: Float32Array,
  frames: number,
): void {
  if (inL && inR) {
    l.set(inL)
    r.set(inR)
  } else {
    l.fill(0)
    r.fill(0)
  }
  chain.process(l, r, frames)
}
