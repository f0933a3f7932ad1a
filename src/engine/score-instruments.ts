/**
 * Tone.js voices for each instrument kind of a score. Every voice is monophonic; the renderer
 * allocates notes over a small pool of them (cheaper and more predictable than PolySynth when a
 * whole piece is scheduled up front).
 */
import type { BassKind, ChordKind, LeadKind } from '../../workers/composer/index.ts'

type ToneModule = typeof import('tone')
type ToneContext = import('tone').BaseContext

export interface Voice {
  trigger(frequency: number, duration: number, time: number, velocity: number): void
  connect(destination: import('tone').InputNode): void
}

const env = (attack: number, decay: number, sustain: number, release: number) => ({ attack, decay, sustain, release })

function synthVoice(Tone: ToneModule, context: ToneContext, options: Record<string, unknown>, volumeDb: number): Voice {
  const synth = new Tone.Synth({ context, volume: volumeDb, ...options } as ConstructorParameters<typeof Tone.Synth>[0])
  return {
    trigger: (f, d, t, v) => synth.triggerAttackRelease(f, d, t, v),
    connect: (dest) => synth.connect(dest),
  }
}

function fmVoice(Tone: ToneModule, context: ToneContext, options: Record<string, unknown>, volumeDb: number): Voice {
  const synth = new Tone.FMSynth({ context, volume: volumeDb, ...options } as ConstructorParameters<typeof Tone.FMSynth>[0])
  return {
    trigger: (f, d, t, v) => synth.triggerAttackRelease(f, d, t, v),
    connect: (dest) => synth.connect(dest),
  }
}

function monoVoice(Tone: ToneModule, context: ToneContext, options: Record<string, unknown>, volumeDb: number): Voice {
  const synth = new Tone.MonoSynth({ context, volume: volumeDb, ...options } as ConstructorParameters<typeof Tone.MonoSynth>[0])
  return {
    trigger: (f, d, t, v) => synth.triggerAttackRelease(f, d, t, v),
    connect: (dest) => synth.connect(dest),
  }
}

export function leadVoice(Tone: ToneModule, context: ToneContext, kind: LeadKind): Voice {
  switch (kind) {
    case 'supersaw':
      return synthVoice(
        Tone,
        context,
        { oscillator: { type: 'fatsawtooth', count: 2, spread: 22 }, envelope: env(0.01, 0.2, 0.6, 0.25) },
        -12,
      )
    case 'square':
      return synthVoice(Tone, context, { oscillator: { type: 'pulse', width: 0.3 }, envelope: env(0.005, 0.15, 0.5, 0.15) }, -12)
    case 'distorted':
      return synthVoice(
        Tone,
        context,
        { oscillator: { type: 'fatsawtooth', count: 2, spread: 12 }, envelope: env(0.005, 0.1, 0.8, 0.15) },
        -12,
      )
    case 'epiano':
      return fmVoice(
        Tone,
        context,
        {
          harmonicity: 3,
          modulationIndex: 2.5,
          oscillator: { type: 'sine' },
          envelope: env(0.004, 1.2, 0.25, 0.6),
          modulationEnvelope: env(0.002, 0.35, 0.1, 0.4),
        },
        -8,
      )
    case 'vibes':
      return fmVoice(
        Tone,
        context,
        {
          harmonicity: 4,
          modulationIndex: 1.6,
          oscillator: { type: 'sine' },
          envelope: env(0.003, 1.6, 0.05, 1.2),
          modulationEnvelope: env(0.002, 0.2, 0, 0.3),
        },
        -7,
      )
    case 'flute':
      return synthVoice(Tone, context, { oscillator: { type: 'triangle' }, envelope: env(0.07, 0.2, 0.8, 0.25) }, -6)
    case 'bell':
      return fmVoice(
        Tone,
        context,
        {
          harmonicity: 3.5,
          modulationIndex: 7,
          oscillator: { type: 'sine' },
          envelope: env(0.002, 2.4, 0, 2.4),
          modulationEnvelope: env(0.002, 1.2, 0, 1.2),
        },
        -10,
      )
    case 'pluck':
      return synthVoice(Tone, context, { oscillator: { type: 'triangle' }, envelope: env(0.002, 0.35, 0.08, 0.3) }, -6)
    case 'sax':
      // A reed: every harmonic (sawtooth) through a resonant lowpass that opens with the breath and
      // stays open while the note is held, unlike the decaying mallets and keys of the other leads.
      return monoVoice(
        Tone,
        context,
        {
          oscillator: { type: 'sawtooth' },
          envelope: env(0.045, 0.2, 0.85, 0.18),
          filter: { Q: 3, type: 'lowpass', rolloff: -12 },
          filterEnvelope: { attack: 0.06, decay: 0.3, sustain: 0.7, release: 0.2, baseFrequency: 600, octaves: 2.6 },
        },
        -11,
      )
  }
}

export function chordVoice(Tone: ToneModule, context: ToneContext, kind: ChordKind): Voice {
  switch (kind) {
    case 'saw-pad':
      return synthVoice(
        Tone,
        context,
        { oscillator: { type: 'fatsawtooth', count: 2, spread: 16 }, envelope: env(0.02, 0.3, 0.5, 0.35) },
        -17,
      )
    case 'pluck':
      return synthVoice(Tone, context, { oscillator: { type: 'square' }, envelope: env(0.003, 0.22, 0.05, 0.2) }, -18)
    case 'power':
      return synthVoice(Tone, context, { oscillator: { type: 'sawtooth' }, envelope: env(0.004, 0.1, 0.85, 0.08) }, -16)
    case 'epiano':
      return fmVoice(
        Tone,
        context,
        {
          harmonicity: 3,
          modulationIndex: 2,
          oscillator: { type: 'sine' },
          envelope: env(0.005, 1.4, 0.3, 0.5),
          modulationEnvelope: env(0.002, 0.4, 0.1, 0.4),
        },
        -14,
      )
    case 'guitar':
      return synthVoice(Tone, context, { oscillator: { type: 'sawtooth4' }, envelope: env(0.003, 0.6, 0.1, 0.5) }, -17)
    case 'strings':
      return synthVoice(
        Tone,
        context,
        { oscillator: { type: 'fatsawtooth', count: 2, spread: 14 }, envelope: env(0.25, 0.3, 0.8, 0.7) },
        -19,
      )
    case 'glass':
      return fmVoice(
        Tone,
        context,
        {
          harmonicity: 2,
          modulationIndex: 1.2,
          oscillator: { type: 'sine' },
          envelope: env(1.2, 1, 0.8, 2.5),
          modulationEnvelope: env(1.5, 1, 0.6, 2),
        },
        -14,
      )
  }
}

export function padVoice(Tone: ToneModule, context: ToneContext): Voice {
  return synthVoice(Tone, context, { oscillator: { type: 'fatsawtooth', count: 2, spread: 18 }, envelope: env(0.6, 0.5, 0.8, 1.2) }, -24)
}

export function bassVoice(Tone: ToneModule, context: ToneContext, kind: BassKind): Voice {
  switch (kind) {
    case 'saw':
      return monoVoice(
        Tone,
        context,
        {
          oscillator: { type: 'sawtooth' },
          envelope: env(0.004, 0.2, 0.6, 0.08),
          filter: { Q: 2, type: 'lowpass', rolloff: -24 },
          filterEnvelope: { attack: 0.002, decay: 0.15, sustain: 0.3, release: 0.1, baseFrequency: 120, octaves: 3.2 },
        },
        -8,
      )
    case 'sub':
      return synthVoice(Tone, context, { oscillator: { type: 'triangle' }, envelope: env(0.008, 0.3, 0.8, 0.12) }, -3)
    case 'pick':
      return monoVoice(
        Tone,
        context,
        {
          oscillator: { type: 'square' },
          envelope: env(0.003, 0.25, 0.5, 0.06),
          filter: { Q: 1, type: 'lowpass', rolloff: -24 },
          filterEnvelope: { attack: 0.002, decay: 0.2, sustain: 0.2, release: 0.1, baseFrequency: 150, octaves: 3 },
        },
        -9,
      )
    case 'upright':
      return synthVoice(Tone, context, { oscillator: { type: 'triangle' }, envelope: env(0.006, 0.5, 0.25, 0.15) }, -2)
    case 'cello':
      return monoVoice(
        Tone,
        context,
        {
          oscillator: { type: 'sawtooth' },
          envelope: env(0.09, 0.3, 0.8, 0.3),
          filter: { Q: 0.7, type: 'lowpass', rolloff: -12 },
          filterEnvelope: { attack: 0.1, decay: 0.4, sustain: 0.6, release: 0.3, baseFrequency: 250, octaves: 1.5 },
        },
        -10,
      )
    case 'distorted':
      return monoVoice(
        Tone,
        context,
        {
          oscillator: { type: 'sawtooth' },
          envelope: env(0.002, 0.1, 0.8, 0.05),
          filter: { Q: 1, type: 'lowpass', rolloff: -24 },
          filterEnvelope: { attack: 0.001, decay: 0.1, sustain: 0.5, release: 0.05, baseFrequency: 200, octaves: 2.5 },
        },
        -10,
      )
  }
}
