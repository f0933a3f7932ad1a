/**
 * The app's wiring of the generation machine: composition in the composer worker (Comlink),
 * rendering with the GM instruments (the SoundFont engine and its bank load on first render; the
 * Tone.js voices only if the bank cannot be loaded, with a notice), and the 'Generation failed' notify.
 *
 * The last finished render is also exposed read-only as `window.__cubeGenerated` (buffer, tempo,
 * mode, brightness), and `window.__cubeRenderCounts` counts finished and cancelled renders, so
 * end-to-end tests can measure the real audio and see a cancel stop the work; harmless in production.
 */
import { notify } from '../../lib/notify.ts'
import {
  composeInWorker,
  scoreTitle,
  type ComposeRequest,
  type Genre,
  type Instrument,
  type Mood,
  type Score,
} from '../../engine/composer.ts'
import {
  createGenerationMachine,
  GENERATION_FAILED_MESSAGE,
  GENERATION_FAILED_TITLE,
  type GenerationRequest,
} from './generation-machine.ts'

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new DOMException('Cancelled', 'AbortError'))
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new DOMException('Cancelled', 'AbortError'))
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

export interface GeneratedDebugInfo {
  buffer: AudioBuffer
  bpm: number
  quality: Score['quality']
  brightness: number
  title: string
}

/** Counts of renders that finished and that were cancelled (aborted) in this page. */
export const renderCounts = { finished: 0, aborted: 0 }

declare global {
  interface Window {
    __cubeGenerated?: GeneratedDebugInfo
    __cubeRenderCounts?: typeof renderCounts
  }
}

export const generationMachine = createGenerationMachine({
  compose: (request: GenerationRequest, signal) => {
    // Only what was chosen is sent: an absent mood, genre or instrument list is inferred by the composer.
    const compose: ComposeRequest = { description: request.description }
    if (request.mood) compose.mood = request.mood as Mood
    if (request.genre) compose.genre = request.genre as Genre
    if (request.instruments) compose.instruments = [...request.instruments] as Instrument[]
    return abortable(composeInWorker(compose), signal)
  },
  render: async (score, { signal, onProgress }) => {
    const { renderGeneratedScore, INSTRUMENTS_UNAVAILABLE_MESSAGE } = await import('../../engine/instruments/generated-render.ts')
    window.__cubeRenderCounts = renderCounts
    let buffer: AudioBuffer
    try {
      const rendered = await renderGeneratedScore(score, { signal, onProgress })
      buffer = rendered.buffer
      if (rendered.engine === 'synthetic') {
        console.warn('[generator] instruments unavailable:', rendered.fallbackReason)
        notify('Built-in voices used', { description: INSTRUMENTS_UNAVAILABLE_MESSAGE })
      }
    } catch (err) {
      if (signal.aborted) renderCounts.aborted++
      throw err
    }
    renderCounts.finished++
    window.__cubeGenerated = { buffer, bpm: score.bpm, quality: score.quality, brightness: score.brightness, title: scoreTitle(score) }
    return buffer
  },
}).provide({
  actions: {
    notifyFailed: ({ context }) => {
      console.error('[generator] generation failed:', context.error)
      notify.error(GENERATION_FAILED_TITLE, { description: GENERATION_FAILED_MESSAGE })
    },
  },
})
