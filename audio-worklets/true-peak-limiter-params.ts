/** The player's true-peak limiter (true-peak-limiter-processor.ts): its name and what it is given. */
export const TRUE_PEAK_LIMITER_PROCESSOR = 'cube-true-peak-limiter'

export interface TruePeakLimiterProcessorOptions {
  /** The highest output true peak, dBTP (the player's loudness normalisation uses −1). */
  ceilingDb: number
  /** strip.wasm compiled on the main thread (the limiter runs on it; this scope cannot fetch). */
  stripModule: WebAssembly.Module
}
