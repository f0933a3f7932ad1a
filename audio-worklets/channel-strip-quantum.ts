/**
 * One render quantum of a channel strip, exactly as the AudioWorkletProcessor runs it. The
 * studio export's stem workers (workers/stem-render.ts) and the remix render call the same
 * functions on the same WebAssembly strip (channel-strip-wasm.ts), so a strip rendered there is
 * sample for sample the strip the live graph plays.
 */
import type { WasmChannelStrip } from './channel-strip-wasm.ts'

/**
 * Hands the strip each control's value for this quantum, from the processor's `parameters` record
 * (k-rate: one float32 value per control) or a worker's record of the same shape.
 */
export function setStripControls(strip: WasmChannelStrip, parameters: Readonly<Record<string, Float32Array>>): void {
  strip.setControls(parameters)
}

/**
 * Into (l, r): the input (mono already duplicated by the caller: inR = inL), or silence when
 * nothing is connected or playing, through the strip.
 */
export function processStripQuantum(
  strip: WasmChannelStrip,
  inL: Float32Array | undefined,
  inR: Float32Array | undefined,
  l: Float32Array,
  r: Float32Array,
  frames: number,
): void {
  const input = inL !== undefined && inR !== undefined
  if (input) {
    strip.inL.set(inL)
    strip.inR.set(inR)
  }
  strip.process(input, frames)
  l.set(strip.outL)
  r.set(strip.outR)
}
