/**
 * One render quantum of the remix tools, exactly as the AudioWorkletProcessor runs it. The
 * export's worker render (workers/remix-tools-render.ts) calls the same functions, so the tools
 * rendered there are sample for sample the tools the preview plays.
 */
import type { RemixToolsChain } from './remix-tools-chain.ts'
import { REMIX_TOOLS_PARAM_NAMES } from './remix-tools-params.ts'

/**
 * Hands the chain each control's value for this quantum, from the processor's `parameters` record
 * (k-rate: one float32 value per control) or a worker's record of the same shape.
 */
export function setRemixToolControls(chain: RemixToolsChain, parameters: Readonly<Record<string, Float32Array>>): void {
  for (let k = 0; k < REMIX_TOOLS_PARAM_NAMES.length; k++) {
    const values = parameters[REMIX_TOOLS_PARAM_NAMES[k]!]
    if (values && values.length > 0) chain.setAt(k, values)
  }
}

/**
 * (l, r) = the tools applied to the input (mono already duplicated by the caller: inR = inL), or
 * to silence when nothing is connected or playing (the delay lines must still move on).
 */
export function processRemixToolsQuantum(
  chain: RemixToolsChain,
  inL: Float32Array | undefined,
  inR: Float32Array | undefined,
  l: Float32Array,
  r: Float32Array,
  frames: number,
): void {
  if (inL && inR) {
    chain.process(inL, inR, l, r, frames)
  } else {
    l.fill(0)
    r.fill(0)
    chain.process(l, r, l, r, frames)
  }
}
