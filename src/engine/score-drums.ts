/**
 * Drum sounds for the score renderer, synthesised as short buffers from a seeded noise generator.
 * Tone's own Noise source draws on Math.random, which would make two renders of the same score
 * differ; these buffers make the same score always render to the same samples.
 */
import type { DrumVoice } from '../../workers/composer/index.ts'
import type { DrumKit } from '../../workers/composer/index.ts'
import { createRng } from '../../workers/composer/prng.ts'

export interface KitSound {
  /** Decay time constant of the noise part, seconds. */
  noiseDecay: number
  /** Gain of the noise part. */
  noiseLevel: number
  /** Body/pitch part: start and end frequency (Hz) of a swept sine, or 0 for none. */
  bodyFrom: number
  bodyTo: number
  bodyDecay: number
  bodyLevel: number
  /** One-pole high-pass on the noise (Hz); 0 = none. */
  highpass: number
  /** One-pole low-pass on the noise (Hz); 0 = none. */
  lowpass: number
}

const BASE: Record<DrumVoice, KitSound> = {
  kick: { noiseDecay: 0.004, noiseLevel: 0.15, bodyFrom: 150, bodyTo: 48, bodyDecay: 0.32, bodyLevel: 1, highpass: 0, lowpass: 3000 },
  snare: { noiseDecay: 0.14, noiseLevel: 0.7, bodyFrom: 240, bodyTo: 180, bodyDecay: 0.08, bodyLevel: 0.5, highpass: 900, lowpass: 0 },
  hat: { noiseDecay: 0.035, noiseLevel: 0.5, bodyFrom: 0, bodyTo: 0, bodyDecay: 0, bodyLevel: 0, highpass: 7000, lowpass: 0 },
  openHat: { noiseDecay: 0.22, noiseLevel: 0.4, bodyFrom: 0, bodyTo: 0, bodyDecay: 0, bodyLevel: 0, highpass: 6000, lowpass: 0 },
  ride: { noiseDecay: 0.5, noiseLevel: 0.25, bodyFrom: 3200, bodyTo: 3150, bodyDecay: 0.6, bodyLevel: 0.05, highpass: 5000, lowpass: 0 },
  crash: { noiseDecay: 1.1, noiseLevel: 0.45, bodyFrom: 0, bodyTo: 0, bodyDecay: 0, bodyLevel: 0, highpass: 3500, lowpass: 0 },
}

/** Per-kit adjustments: a boom-bap kit is dull and long, a metal kit is tight and bright, etc. */
const KIT_TWEAKS: Partial<Record<DrumKit, Partial<Record<DrumVoice, Partial<KitSound>>>>> = {
  'boom-bap': {
    kick: { bodyDecay: 0.45, bodyTo: 45 },
    snare: { noiseDecay: 0.18, lowpass: 5000 },
    hat: { lowpass: 9000, noiseLevel: 0.35 },
  },
  brush: {
    snare: { noiseDecay: 0.3, noiseLevel: 0.35, bodyLevel: 0.1, highpass: 2000, lowpass: 7000 },
    kick: { bodyDecay: 0.25, bodyLevel: 0.6 },
  },
  light: {
    kick: { bodyDecay: 0.2, bodyLevel: 0.7 },
    snare: { noiseDecay: 0.06, bodyFrom: 600, bodyTo: 500, bodyLevel: 0.3 },
    hat: { noiseDecay: 0.025, noiseLevel: 0.3 },
  },
  metal: { kick: { bodyDecay: 0.18, bodyFrom: 200, noiseLevel: 0.35, noiseDecay: 0.008 }, snare: { noiseDecay: 0.12, noiseLevel: 0.9 } },
  rock: { snare: { noiseDecay: 0.17, noiseLevel: 0.85 }, kick: { bodyDecay: 0.28 } },
  soft: { kick: { bodyDecay: 0.6, bodyTo: 40, noiseLevel: 0 }, hat: { noiseDecay: 0.06, noiseLevel: 0.25, lowpass: 8000 } },
  electronic: { kick: { bodyDecay: 0.38, bodyFrom: 170 }, snare: { noiseDecay: 0.16, highpass: 1200 } },
}

export function kitSound(kit: DrumKit, voice: DrumVoice): KitSound {
  return { ...BASE[voice], ...(KIT_TWEAKS[kit]?.[voice] ?? {}) }
}

/** One drum hit as mono samples. */
export function synthesiseDrum(sound: KitSound, sampleRate: number, seed: number): Float32Array<ArrayBuffer> {
  const longest = Math.max(sound.noiseDecay, sound.bodyDecay)
  const n = Math.max(1, Math.ceil(sampleRate * Math.min(3, longest * 6)))
  const out = new Float32Array(n)
  const rng = createRng(seed)
  const hpA = sound.highpass > 0 ? Math.exp((-2 * Math.PI * sound.highpass) / sampleRate) : 0
  const lpA = sound.lowpass > 0 ? Math.exp((-2 * Math.PI * sound.lowpass) / sampleRate) : 0
  let hpPrevIn = 0
  let hpPrevOut = 0
  let lp = 0
  let phase = 0
  const sweep = sound.bodyDecay > 0 ? sound.bodyDecay / 3 : 1
  for (let i = 0; i < n; i++) {
    const t = i / sampleRate
    let noise = rng.next() * 2 - 1
    if (sound.highpass > 0) {
      const y = hpA * (hpPrevOut + noise - hpPrevIn)
      hpPrevIn = noise
      hpPrevOut = y
      noise = y
    }
    if (sound.lowpass > 0) {
      lp = (1 - lpA) * noise + lpA * lp
      noise = lp
    }
    let sample = noise * sound.noiseLevel * Math.exp(-t / sound.noiseDecay)
    if (sound.bodyLevel > 0 && sound.bodyFrom > 0) {
      const freq = sound.bodyTo + (sound.bodyFrom - sound.bodyTo) * Math.exp(-t / sweep)
      phase += (2 * Math.PI * freq) / sampleRate
      sample += Math.sin(phase) * sound.bodyLevel * Math.exp(-t / sound.bodyDecay)
    }
    // 2 ms fade-in avoids a click on the attack.
    out[i] = sample * Math.min(1, t / 0.002)
  }
  return out
}

/** A seeded stereo impulse response: decaying noise, darker as it decays, for the score renderer's convolution reverb. */
export function reverbImpulse(sampleRate: number, seconds: number, seed: number): [Float32Array<ArrayBuffer>, Float32Array<ArrayBuffer>] {
  const n = Math.ceil(sampleRate * seconds)
  const channels: [Float32Array<ArrayBuffer>, Float32Array<ArrayBuffer>] = [new Float32Array(n), new Float32Array(n)]
  channels.forEach((ch, c) => {
    const rng = createRng(seed + c)
    let lp = 0
    for (let i = 0; i < n; i++) {
      const t = i / sampleRate
      const a = Math.min(0.95, 0.2 + t / seconds)
      lp = (1 - a) * (rng.next() * 2 - 1) + a * lp
      ch[i] = lp * Math.pow(1 - i / n, 2.2) * Math.min(1, t / 0.01)
    }
  })
  return channels
}
