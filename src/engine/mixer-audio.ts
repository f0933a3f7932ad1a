/**
 * Decoded audio of the mixer's tracks, held once in memory and keyed by a track's audioId.
 * The same Float32Arrays feed the live graph, offline renders, waveforms and persistence.
 *
 *   putMixerAudio(audio) / getMixerAudio(id) / hasMixerAudio(id) / dropUnusedAudio(keep)
 *   onMixerAudio(cb)             told each time audio arrives (an instrument track's render lands
 *                                after its notes changed: the live graph and waveforms pick it up)
 *   audioBufferFor(ctx, audio)   an AudioBuffer of the context's kind (cached per context)
 */
import type { IAudioBuffer, IAudioContext, IOfflineAudioContext } from 'standardized-audio-context'
import type { StoredAudio } from './project-db.ts'

export type MixerAudio = StoredAudio
export type AnyAudioContext = IAudioContext | IOfflineAudioContext

const audio = new Map<string, MixerAudio>()
const buffers = new WeakMap<AnyAudioContext, Map<string, IAudioBuffer>>()

const arrivals = new Set<(id: string) => void>()

export function putMixerAudio(a: MixerAudio): void {
  audio.set(a.id, a)
  for (const cb of arrivals) cb(a.id)
}

export function onMixerAudio(cb: (id: string) => void): () => void {
  arrivals.add(cb)
  return () => arrivals.delete(cb)
}

export function dropMixerAudio(id: string): void {
  audio.delete(id)
}

export function getMixerAudio(id: string): MixerAudio | undefined {
  return audio.get(id)
}

export function hasMixerAudio(id: string): boolean {
  return audio.has(id)
}

/** Forgets audio no track refers to any more (keeps memory bounded across projects). */
export function dropUnusedAudio(keep: ReadonlySet<string>): void {
  for (const id of audio.keys()) if (!keep.has(id)) audio.delete(id)
}

export function audioDuration(a: MixerAudio): number {
  return (a.channels[0]?.length ?? 0) / a.sampleRate
}

export function audioBufferFor(ctx: AnyAudioContext, a: MixerAudio): IAudioBuffer {
  let perCtx = buffers.get(ctx)
  if (!perCtx) buffers.set(ctx, (perCtx = new Map()))
  const cached = perCtx.get(a.id)
  if (cached) return cached
  const length = Math.max(1, a.channels[0]?.length ?? 0)
  const buf = ctx.createBuffer(a.channels.length, length, a.sampleRate)
  a.channels.forEach((ch, i) => buf.copyToChannel(ch, i))
  perCtx.set(a.id, buf)
  return buf
}
