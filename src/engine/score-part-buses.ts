/**
 * The parts of a score as the renderer mixes them (score-renderer.ts): each voice pool, the
 * premixed drums and the scene textures, each through its own bus (a pairwise sum, drive, a
 * lowpass that follows the sections' brightness, a pan). A bus touches nothing outside itself, so
 * it can be built in the mixing graph or alone in an offline context of its own: Web Audio renders
 * a node from its inputs and its parameters' timelines only, so the bus sounds the same to the
 * sample either way.
 *
 *   partBuses(score, sampleRate, { from, to, parts, carry }) → PartBus[]   in mixing order
 *     each: { reverbSend, delaySend, groups (its sources two by two), chain (from the groups to the output) }
 *   buildBus(bus, Tone, context, native, keep) → the bus's output, groups and chain in one context
 */
import type { NoteEvent, Score } from '../../workers/composer/index.ts'
import { bassVoice, chordVoice, leadVoice, padVoice, type Voice } from './score-instruments.ts'
import { premixDrums } from './score-drum-premix.ts'
import { renderTextures } from './score-textures.ts'
import { sumTree, type Connectable, type Keep } from './score-sum-tree.ts'

type ToneModule = typeof import('tone')
type ToneContext = import('tone').OfflineContext

export type ScorePart = 'melody' | 'chords' | 'pad' | 'bass' | 'drums'

/** Builds nodes on a context and returns what they output. */
export type Build = (Tone: ToneModule, context: ToneContext, native: OfflineAudioContext, keep: Keep) => Connectable

export interface PartBus {
  reverbSend: number
  delaySend: number
  /**
   * The bus's sources in groups of at most two, each builder returning its group's junction (the
   * first level of the pairwise sum): groups touch nothing outside themselves either, so a part with
   * many voices can render them in several contexts.
   */
  groups: Build[]
  /** From the groups' junctions, in order, to the bus's output: the rest of the sum, drive, filter, pan. */
  chain: (Tone: ToneModule, context: ToneContext, keep: Keep, junctions: Connectable[]) => Connectable
}

/** The whole bus in one context. */
export function buildBus(bus: PartBus, Tone: ToneModule, context: ToneContext, native: OfflineAudioContext, keep: Keep): Connectable {
  return bus.chain(
    Tone,
    context,
    keep,
    bus.groups.map((group) => group(Tone, context, native, keep)),
  )
}

export interface PartWindow {
  /** The render's start on the piece's timeline (seconds; the graph's time 0). */
  from: number
  to: number
  parts: ReadonlySet<ScorePart>
  /** Notes that began before `from` and still sound start at `from` (a pre-roll). */
  carry: boolean
}

/** Lowpass cutoff for a brightness of 0 … 1: about 400 Hz to 16 kHz, logarithmically. */
export const brightnessToCutoff = (brightness: number): number => 400 * Math.pow(2, 5.3 * Math.min(1, Math.max(0, brightness)))

const midiToFrequency = (midi: number): number => 440 * Math.pow(2, (midi - 69) / 12)

type Trigger = Parameters<Voice['trigger']>

/**
 * Assigns notes to a pool of `n` monophonic voices: a free voice if any, otherwise the one that frees
 * first. With `carry`, a note that began before `from` and still sounds starts at `from` for the rest
 * of its length (its attack falls in a pre-roll that is dropped). Returns each voice's triggers.
 */
function assignNotes(n: number, notes: NoteEvent[], from: number, to: number, carry: boolean): Trigger[][] {
  const plan: Trigger[][] = Array.from({ length: n }, () => [])
  const busyUntil = plan.map(() => -Infinity)
  for (const note of notes) {
    if (note.time >= to) continue
    let start = note.time
    let duration = note.duration
    if (start < from) {
      if (!carry || start + duration <= from) continue
      duration = start + duration - from
      start = from
    }
    const t = start - from
    let idx = busyUntil.findIndex((end) => end <= t + 1e-6)
    if (idx < 0) idx = busyUntil.indexOf(Math.min(...busyUntil))
    busyUntil[idx] = t + duration
    plan[idx]!.push([
      midiToFrequency(note.midi),
      Math.max(0.02, Math.min(duration, to - start)),
      Math.max(0, t),
      Math.min(1, note.velocity),
    ])
  }
  return plan
}

interface BusShape {
  scale: number
  pan: number
  reverb: number
  delay: number
  drive?: number
  minHz?: number
}

export function partBuses(score: Score, sampleRate: number, window: PartWindow): PartBus[] {
  const { from, to, parts, carry } = window
  const inst = score.instrumentation
  const { melody, chords, pad, bass } = score.tracks
  const buses: PartBus[] = []

  const bus = (groups: Build[], shape: BusShape) =>
    buses.push({
      reverbSend: shape.reverb,
      delaySend: shape.delay,
      groups,
      chain: (Tone, context, keep, junctions) => {
        // The groups' junctions are the pairwise sum's first level; one junction is the whole sum.
        const input = junctions.length === 1 ? (junctions[0] as import('tone').Gain) : sumTree(Tone, context, junctions, keep)
        // One lowpass per part follows the brightness of each section (the chorus opens up).
        const filter = keep(new Tone.Filter({ context, type: 'lowpass', rolloff: -24, Q: 0.5, frequency: 1000 }))
        for (const s of score.sections) {
          if (s.endTime <= from || s.startTime >= to) continue
          const hz = brightnessToCutoff(s.brightness) * shape.scale
          filter.frequency.setValueAtTime(Math.min(18000, Math.max(shape.minHz ?? 0, hz)), Math.max(0, s.startTime - from))
        }
        const panner = keep(new Tone.Panner({ context, pan: shape.pan }))
        if (shape.drive && shape.drive > 0)
          input.chain(keep(new Tone.Distortion({ context, distortion: shape.drive, oversample: '4x', wet: 1 })), filter, panner)
        else input.chain(filter, panner)
        return panner
      },
    })
  /** A junction (one gain) over what `sources` builds: at most two signals. */
  const junction =
    (sources: (Tone: ToneModule, context: ToneContext, native: OfflineAudioContext, keep: Keep) => Connectable[]): Build =>
    (Tone, context, native, keep) => {
      const g = keep(new Tone.Gain({ context }))
      for (const source of sources(Tone, context, native, keep)) source.connect(g)
      return g
    }

  // Every voice's notes are assigned over the whole pool first; each group then plays its own voices' notes.
  const voices = (notes: NoteEvent[], n: number, make: (Tone: ToneModule, context: ToneContext) => Voice): Build[] => {
    const plan = assignNotes(n, notes, from, to, carry)
    const groups: Build[] = []
    for (let first = 0; first < n; first += 2) {
      const members = [first, first + 1].filter((v) => v < n)
      groups.push(
        junction((Tone, context, _native, keep) =>
          members.map((v) => {
            const voice = keep(make(Tone, context))
            for (const args of plan[v]!) voice.trigger(...args)
            return voice
          }),
        ),
      )
    }
    return groups
  }
  // Drums and scene textures are computed samples, played as one buffer each.
  const premixed = (channels: [Float32Array<ArrayBuffer>, Float32Array<ArrayBuffer>]): Build[] => [
    junction((Tone, context, native, keep) => {
      const raw = native.createBuffer(2, channels[0].length, native.sampleRate)
      raw.copyToChannel(channels[0], 0)
      raw.copyToChannel(channels[1], 1)
      const src = keep(new Tone.ToneBufferSource({ context, url: new Tone.ToneAudioBuffer(raw) }))
      src.start(0)
      return [src]
    }),
  ]

  const pools: [ScorePart, NoteEvent[], number, (Tone: ToneModule, context: ToneContext) => Voice, BusShape][] = [
    [
      'melody',
      melody,
      2,
      (Tone, c) => leadVoice(Tone, c, inst.lead),
      { scale: 1.2, pan: 0, reverb: 0.6, delay: 1, drive: inst.lead === 'distorted' ? score.mix.drive : 0 },
    ],
    [
      'chords',
      chords,
      inst.chords === 'guitar' || inst.chords === 'strings' ? 5 : 4,
      (Tone, c) => chordVoice(Tone, c, inst.chords),
      { scale: 1, pan: -0.2, reverb: 0.5, delay: inst.chords === 'glass' ? 0.6 : 0, drive: inst.chords === 'power' ? score.mix.drive : 0 },
    ],
    ['pad', pad, 3, (Tone, c) => padVoice(Tone, c), { scale: 0.8, pan: 0.25, reverb: 0.8, delay: 0 }],
    [
      'bass',
      bass,
      2,
      (Tone, c) => bassVoice(Tone, c, inst.bass),
      { scale: 0.6, pan: 0, reverb: 0.05, delay: 0, drive: inst.bass === 'distorted' ? score.mix.drive * 0.5 : 0 },
    ],
  ]
  for (const [part, notes, n, make, shape] of pools) if (parts.has(part) && notes.length) bus(voices(notes, n, make), shape)
  const drums = parts.has('drums') ? premixDrums(score, sampleRate, from, to, carry) : null
  if (drums) bus(premixed(drums), { scale: 2.5, pan: 0, reverb: 0.25, delay: 0, minHz: 1500 })
  // A scene's sound is heard as named: above the parts' brightness (its filter stays open).
  const textures = renderTextures(score, sampleRate, from, to)
  if (textures) bus(premixed(textures), { scale: 1, pan: 0, reverb: 0.3, delay: 0, minHz: 18000 })
  return buses
}
