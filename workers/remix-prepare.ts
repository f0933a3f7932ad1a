/**
 * The remix's prepare step (a worker runs it; the page shows progress and never freezes): the
 * source stretched to the target tempo without changing its pitch (Beat Match, WSOLA), and each
 * chosen Sound Library loop stretched to the same tempo and placed on the source's beat grid
 * from its downbeat. The result feeds the remix voice (audio-worklets/remix-voice-chain.ts) in
 * the preview and in the render alike.
 */
import { timeStretch } from '../dsp/time-stretch.ts'
import type { LoopPlacement } from '../audio-worklets/kernels/loop-layer.ts'
import type { RemixLayer } from '../audio-worklets/remix-voice-params.ts'

export interface LoopSource {
  /** Mono samples at the source's rate. */
  pcm: Float32Array
  /** The loop's own tempo (Sound Library metadata). */
  bpm: number
}

export interface PrepareJob {
  sampleRate: number
  /** Detected tempo and downbeat of the source (workers/remix-analysis.ts). */
  bpm: number
  firstBeat: number
  /** Output tempo: the source's own tempo when Beat Match is off. */
  targetBpm: number
  loops: Partial<Record<RemixLayer, LoopSource>>
}

export interface PreparedRemix {
  sampleRate: number
  /** Output tempo and downbeat (seconds) after the stretch. */
  bpm: number
  firstBeat: number
  source: Float32Array[]
  layers: Partial<Record<RemixLayer, LoopPlacement>>
}

export const MIN_TARGET_BPM = 40
export const MAX_TARGET_BPM = 240
/** A stretch outside this range sounds broken whatever the algorithm; the page keeps targets inside. */
export const MAX_STRETCH = 2

/** Target tempos the page accepts for a source at `bpm`. */
export function targetRange(bpm: number): { min: number; max: number } {
  return { min: Math.max(MIN_TARGET_BPM, Math.ceil(bpm / MAX_STRETCH)), max: Math.min(MAX_TARGET_BPM, Math.floor(bpm * MAX_STRETCH)) }
}

/** The loop's tempo octave nearest the target (a 71 BPM loop plays at 142 under a 140 BPM source). */
export function loopTempoOctave(loopBpm: number, targetBpm: number): number {
  let bpm = loopBpm
  while (bpm * Math.SQRT2 < targetBpm) bpm *= 2
  while (bpm / Math.SQRT2 > targetBpm) bpm /= 2
  return bpm
}

/** A loop stretched to whole beats at `targetBpm`, and where it repeats. */
export function placeLoop(loop: LoopSource, targetBpm: number, firstBeat: number, sampleRate: number): LoopPlacement {
  const bpm = loopTempoOctave(loop.bpm, targetBpm)
  const beats = Math.max(1, Math.round((loop.pcm.length / sampleRate) * (bpm / 60)))
  const period = (beats * 60) / targetBpm
  const frames = Math.round(period * sampleRate)
  return { loop: timeStretch(loop.pcm, frames / loop.pcm.length, sampleRate), firstBeat, period }
}

export function prepareRemix(channels: Float32Array[], job: PrepareJob, onProgress?: (fraction: number) => void): PreparedRemix {
  const { min, max } = targetRange(job.bpm)
  if (!(job.targetBpm >= min && job.targetBpm <= max)) throw new RangeError(`Pick a target tempo between ${min} and ${max} BPM`)
  const stretch = job.bpm / job.targetBpm
  const same = Math.abs(stretch - 1) < 1e-9
  const source: Float32Array[] = []
  channels.forEach((ch, i) => {
    source.push(same ? ch.slice() : timeStretch(ch, stretch, job.sampleRate))
    onProgress?.((0.8 * (i + 1)) / channels.length)
  })
  const firstBeat = job.firstBeat * stretch
  const layers: Partial<Record<RemixLayer, LoopPlacement>> = {}
  for (const [name, loop] of Object.entries(job.loops) as [RemixLayer, LoopSource][]) {
    layers[name] = placeLoop(loop, job.targetBpm, firstBeat, job.sampleRate)
  }
  onProgress?.(1)
  return { sampleRate: job.sampleRate, bpm: job.targetBpm, firstBeat, source, layers }
}
