/**
 * How the generator renders a composed piece: with the GM instruments (gm-render.ts), and only if
 * the instrument sounds cannot be loaded or read, with the synthetic Tone.js voices of
 * score-renderer.ts, saying so. A cancel is never turned into a fallback.
 */
import type { Score } from '../../../workers/composer/score.ts'

export const INSTRUMENTS_UNAVAILABLE_MESSAGE =
  'The instrument sounds could not be loaded, so this track uses the built-in synthesizer voices. Try again later for real instruments.'

export interface GeneratedRender {
  buffer: AudioBuffer
  engine: 'instruments' | 'synthetic'
  /** Why the synthetic voices played (for the console); absent when the instruments did. */
  fallbackReason?: string
}

export async function renderGeneratedScore(
  score: Score,
  options: { signal?: AbortSignal; onProgress?: (fraction: number) => void } = {},
): Promise<GeneratedRender> {
  try {
    const { renderInstrumentScore } = await import('./gm-render.ts')
    return { buffer: await renderInstrumentScore(score, options), engine: 'instruments' }
  } catch (err) {
    if (options.signal?.aborted || (err instanceof DOMException && err.name === 'AbortError')) throw err
    const { renderScore } = await import('../score-renderer.ts')
    const reason = err instanceof Error ? err.message : String(err)
    return { buffer: await renderScore(score, options), engine: 'synthetic', fallbackReason: reason }
  }
}
