// The score's drum part, premixed: every hit synthesised once per voice (seeded) and mixed into one
// stereo buffer, so the renderer's graph carries one source for the whole kit.
import type { DrumVoice, Score } from '../../workers/composer/index.ts'
import { kitSound, synthesiseDrum } from './score-drums.ts'

const DRUM_RING_SECONDS = 3
const DRUM_LEVEL: Record<DrumVoice, number> = { kick: 1, snare: 0.7, hat: 0.35, openHat: 0.3, ride: 0.3, crash: 0.35 }
const DRUM_PAN: Record<DrumVoice, number> = { kick: 0, snare: 0, hat: 0.25, openHat: 0.25, ride: -0.3, crash: 0.15 }

/** All drum hits mixed into one stereo buffer in a fixed order (equal-power panning per voice). */
export function premixDrums(
  score: Score,
  sampleRate: number,
  from: number,
  to: number,
  carry: boolean,
): [Float32Array<ArrayBuffer>, Float32Array<ArrayBuffer>] | null {
  // Carried in: a hit up to DRUM_RING_SECONDS before the window may still ring into it.
  const hits = score.tracks.drums.filter((h) => h.time < to && h.time >= (carry ? from - DRUM_RING_SECONDS : from))
  if (hits.length === 0) return null
  const frames = Math.ceil((to - from) * sampleRate)
  const left = new Float32Array(frames)
  const right = new Float32Array(frames)
  const sounds = new Map<DrumVoice, Float32Array>()
  for (const hit of hits) {
    let sound = sounds.get(hit.voice)
    if (!sound) {
      sound = synthesiseDrum(kitSound(score.instrumentation.drums, hit.voice), sampleRate, score.seed ^ (hit.voice.length * 7919))
      sounds.set(hit.voice, sound)
    }
    const angle = ((DRUM_PAN[hit.voice] + 1) * Math.PI) / 4
    const gain = hit.velocity * DRUM_LEVEL[hit.voice]
    const gl = gain * Math.cos(angle)
    const gr = gain * Math.sin(angle)
    const start = Math.round((hit.time - from) * sampleRate)
    const end = Math.min(frames, start + sound.length)
    for (let i = Math.max(0, start); i < end; i++) {
      const v = sound[i - start]!
      left[i]! += v * gl
      right[i]! += v * gr
    }
  }
  return [left, right]
}
