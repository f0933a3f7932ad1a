/**
 * The one audio context of the app (standardized-audio-context, latencyHint 'interactive').
 *
 * Browsers start an AudioContext suspended unless it was created or resumed inside a user gesture,
 * so everything that makes sound goes through `unlockAudio()` from a click/keydown handler.
 *
 *   getAudioContext(): IAudioContext          — creates the context lazily (may still be 'suspended')
 *   unlockAudio(): Promise<IAudioContext>     — creates and resumes it; call from gesture handlers
 *   unlockAudioOnFirstGesture(): () => void   — installs one-shot pointerdown/keydown listeners
 *
 * Nothing here imports React; Tone.js shares this context through src/engine/tone-context.ts.
 */
import { AudioContext, type IAudioContext } from 'standardized-audio-context'

let context: IAudioContext | null = null

export function getAudioContext(): IAudioContext {
  if (!context) context = new AudioContext({ latencyHint: 'interactive' })
  return context
}

export async function unlockAudio(): Promise<IAudioContext> {
  const ctx = getAudioContext()
  if (ctx.state === 'suspended') {
    try {
      await ctx.resume()
    } catch (err) {
      // Outside a gesture the browser refuses; the next gesture retries.
      console.warn('[audio] resume refused', err)
    }
  }
  return ctx
}

/** True once the context exists and is running (sound can actually come out). */
export function isAudioRunning(): boolean {
  return context?.state === 'running'
}

const GESTURE_EVENTS = ['pointerdown', 'keydown', 'touchend'] as const

/** Resumes the context on the first user gesture anywhere; returns a remover. */
export function unlockAudioOnFirstGesture(target: EventTarget = window): () => void {
  const handler = () => {
    void unlockAudio().then((ctx) => {
      if (ctx.state === 'running') remove()
    })
  }
  const remove = () => GESTURE_EVENTS.forEach((e) => target.removeEventListener(e, handler, true))
  GESTURE_EVENTS.forEach((e) => target.addEventListener(e, handler, { capture: true, passive: true }))
  return remove
}
