/**
 * Tone.js on the app's one AudioContext, loaded lazily so tone never enters the landing bundle.
 *
 *   const Tone = await loadToneWithAppContext()
 *   synth.connect(getMasterBus().input)   // not toDestination(): the master bus has the limiter
 *
 * Call it after (or inside) a gesture that ran `unlockAudio()`, so the shared context runs.
 */
import { getAudioContext } from './audio-context.ts'

type ToneModule = typeof import('tone')

let tone: Promise<ToneModule> | null = null

export function loadToneWithAppContext(): Promise<ToneModule> {
  if (!tone) {
    tone = import('tone').then((Tone) => {
      // Tone wraps a standardized-audio-context context itself, so it accepts ours directly.
      Tone.setContext(getAudioContext() as unknown as Parameters<typeof Tone.setContext>[0])
      return Tone
    })
    tone.catch(() => {
      tone = null
    })
  }
  return tone
}

/** Alias under the name the issue plan uses; not a React hook despite the prefix. */
export const useToneWithAppContext = loadToneWithAppContext
