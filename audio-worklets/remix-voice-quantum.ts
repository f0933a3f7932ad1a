/**
 * One render quantum of the remix voice, exactly as the AudioWorkletProcessor runs it; the remix
 * export's worker (workers/remix-render.ts) calls the same functions, so the render is the preview.
 */
import type { RemixVoiceChain } from './remix-voice-chain.ts'
import { REMIX_VOICE_PARAM_NAMES } from './remix-voice-params.ts'

/** Hands the chain each control's value for this quantum (k-rate: one value per control). */
export function setRemixVoiceControls(chain: RemixVoiceChain, parameters: Readonly<Record<string, Float32Array>>): void {
  for (let k = 0; k < REMIX_VOICE_PARAM_NAMES.length; k++) {
    const values = parameters[REMIX_VOICE_PARAM_NAMES[k]!]
    if (values && values.length > 0) chain.setAt(k, values)
  }
}

export function processRemixVoiceQuantum(chain: RemixVoiceChain, l: Float32Array, r: Float32Array, frames: number): void {
  chain.process(l, r, frames)
}
