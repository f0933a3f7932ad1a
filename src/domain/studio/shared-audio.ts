/**
 * The audio of a shared project, heard by everyone in the session: a track's sample reference (its
 * audioId) names a file in Storage (src/backend/project-audio.ts). An editor's or the owner's
 * studio uploads each track's audio it holds that is not stored yet; every studio fetches the audio
 * of tracks it lacks (from this browser's own store first), decodes it and hands it to the engine.
 * Audio a peer has not finished uploading is asked for again every RETRY_MS until it is there.
 * Instrument tracks carry no audio of their own (each studio renders their notes).
 */
import type { StoredAudio } from '../../engine/project-db.ts'
import type { MixerTrack } from '../../engine/mixer-model.ts'

export interface SharedAudioIo {
  /** The engine holds this audio already. */
  has(id: string): boolean
  get(id: string): StoredAudio | undefined
  put(audio: StoredAudio): void
  /** This browser's saved audio (IndexedDB), if any. */
  local(id: string): Promise<StoredAudio | undefined>
  /** Where the project's audio is stored, or null when nobody uploaded it yet. */
  path(id: string): Promise<string | null>
  upload(id: string, wav: ArrayBuffer): Promise<void>
  download(path: string): Promise<ArrayBuffer>
  encode(audio: StoredAudio): Promise<ArrayBuffer>
  decode(wav: ArrayBuffer): Promise<{ sampleRate: number; channels: Float32Array[] }>
}

export type SharedAudioStatus = 'here' | 'fetching' | 'waiting' | 'failed'

export interface SharedAudioOptions {
  tracks: () => readonly MixerTrack[]
  /** Calls back on each change of the tracks; returns the unsubscribe. */
  onTracks: (cb: () => void) => () => void
  /** Only editors and the owner upload. */
  canWrite: boolean
  io: SharedAudioIo
  retryMs?: number
  onStatus?: (id: string, status: SharedAudioStatus) => void
  onError?: (error: unknown) => void
}

export const RETRY_MS = 2000

export function startSharedAudio(options: SharedAudioOptions): { stop(): void; settled(): Promise<void> } {
  const { io, canWrite } = options
  const stored = new Set<string>()
  const busy = new Map<string, Promise<void>>()
  let retry: ReturnType<typeof setTimeout> | null = null
  let stopped = false
  const status = (id: string, s: SharedAudioStatus) => options.onStatus?.(id, s)
  const later = () => {
    if (!stopped && !retry) retry = setTimeout(() => ((retry = null), sync()), options.retryMs ?? RETRY_MS)
  }

  const share = async (id: string) => {
    const audio = io.get(id)
    if (!audio || audio.channels.length === 0) return
    if (!(await io.path(id))) await io.upload(id, await io.encode(audio))
    stored.add(id)
  }
  const fetch = async (id: string) => {
    status(id, 'fetching')
    const mine = await io.local(id).catch(() => undefined)
    if (mine) {
      io.put(mine)
      return status(id, 'here')
    }
    const path = await io.path(id)
    if (!path) {
      status(id, 'waiting')
      return later()
    }
    const { sampleRate, channels } = await io.decode(await io.download(path))
    if (stopped) return
    io.put({ id, sampleRate, channels })
    stored.add(id)
    status(id, 'here')
  }
  const run = (id: string, job: (id: string) => Promise<void>) => {
    const p = job(id)
      .catch((e: unknown) => {
        status(id, 'failed')
        options.onError?.(e)
        later()
      })
      .finally(() => busy.delete(id))
    busy.set(id, p)
  }

  const sync = () => {
    if (stopped) return
    const ids = new Set(options.tracks().flatMap((t) => (t.instrument ? [] : [t.audioId])))
    for (const id of ids) {
      if (busy.has(id) || stored.has(id)) continue
      if (!io.has(id)) run(id, fetch)
      else if (canWrite) run(id, share)
    }
  }
  const unsubscribe = options.onTracks(sync)
  sync()
  return {
    stop() {
      stopped = true
      unsubscribe()
      if (retry) clearTimeout(retry)
    },
    /** Resolves once what is under way now has finished (tests). */
    async settled() {
      while (busy.size) await Promise.all(busy.values())
    },
  }
}
