/**
 * A live session on a shared project: the studio's mix store switches to the project's own shared
 * document, which the sync provider keeps in step with the other creators over the project's
 * Realtime room and the stored updates (src/backend/project-collaboration.ts).
 *
 * The owner who opens a session for a project nobody has edited live yet seeds it with the mix
 * open in the studio. Leaving keeps the mix as it is in this studio; editing on is single-player.
 */
import * as Y from 'yjs'
import { Awareness } from 'y-protocols/awareness'
import type { SupabaseClient } from '@supabase/supabase-js'
import { appendProjectUpdate, compactProjectUpdates, loadProjectUpdates, openProjectRoom } from '../../backend/project-collaboration.ts'
import { useMixerStore, type OpenProject } from './mixer-store.ts'
import { startProjectSync, type ProjectSync } from './project-sync.ts'
import { boundedPresence, PLAYHEAD_EVERY_MS, type Presence } from './presence.ts'
import { sameJson } from '../../lib/same-json.ts'
import { startSharedAudio, type SharedAudioIo, type SharedAudioStatus } from './shared-audio.ts'
import { downloadProjectAudio, projectAudioPath, uploadProjectAudio } from '../../backend/project-audio.ts'
import { getMixerAudio, hasMixerAudio, putMixerAudio } from '../../engine/mixer-audio.ts'
import { getAudio } from '../../engine/project-db.ts'
import { decodeWavFile, encodeWavBuffer } from '../../engine/workers.ts'
import { startPlayTogether, type PlayTogether, type SharedTransport } from './play-together.ts'
import { mixerTransport } from './mixer-transport.ts'

export type ProjectPart = 'owner' | 'editor' | 'viewer'

/** The transport whose position this creator shows the others (the mixer engine's). */
export interface Transport {
  position(): number
  isPlaying(): boolean
}

/** What the studio's views share of this creator: the rest of Presence comes from the session itself. */
export type SharedPresence = Partial<Pick<Presence, 'clip' | 'notes' | 'touching'>>

export interface SharedSession {
  project: OpenProject
  part: ProjectPart
  /** Who is in the project now (this creator included); relayed, never stored. */
  awareness: Awareness
  /** Resolves once the stored state and the room's answers are in. */
  ready: Promise<void>
  /** Play together over the project's room (off until this creator opts in). */
  together: PlayTogether
  /** Shares what the timeline, the piano roll or a control shows of this creator (bounded). */
  share(change: SharedPresence): void
  leave(): Promise<void>
}

export interface JoinOptions {
  db: SupabaseClient
  project: OpenProject
  part: ProjectPart
  /** The name others see beside this creator's colour. */
  name: string
  /** Where refused messages are reported (console by default). */
  onRefused?: (reason: string) => void
  onStoreFailed?: (error: unknown) => void
  /** The session ended by itself (another project was opened in the studio). */
  onEnded?: () => void
  store?: typeof useMixerStore
  /** Whose playhead is shared (none: no playhead); sampled every PLAYHEAD_EVERY_MS. */
  transport?: Transport
  /** This creator's account: the folder their audio is shared from (none: audio is only fetched). */
  userId?: string
  /** How tracks' audio is shared (by default: Storage and this studio's engine); null: not at all. */
  audio?: SharedAudioIo | null
  /** Each track audio's way here: fetching, waiting for its uploader, here, failed. */
  onAudioStatus?: (audioId: string, status: SharedAudioStatus) => void
  /** What play together starts and stops (the mixer engine by default). */
  playTransport?: SharedTransport
}

/** The project's audio in Storage, fed to this studio's engine. */
export function storageAudioIo(db: SupabaseClient, projectId: string, userId: string | undefined): SharedAudioIo {
  return {
    has: hasMixerAudio,
    get: getMixerAudio,
    put: putMixerAudio,
    local: getAudio,
    path: (id) => projectAudioPath(db, projectId, id),
    upload: async (id, wav) => {
      if (userId) await uploadProjectAudio(db, userId, projectId, id, wav)
    },
    download: (path) => downloadProjectAudio(db, path),
    // 32-bit float: the audio arrives in the other studios bit for bit.
    encode: (a) => encodeWavBuffer(a.channels, a.sampleRate, 'float32'),
    decode: decodeWavFile,
  }
}

export function joinSharedProject(options: JoinOptions): SharedSession {
  const { db, project, part } = options
  const store = options.store ?? useMixerStore
  const open = store.getState()
  const seed = part === 'owner' ? { tracks: open.tracks, master: open.master, tempo: open.tempo } : null
  const doc = new Y.Doc()
  store.collab.useDoc(doc, project)
  const awareness = new Awareness(doc)
  let local: Presence = boundedPresence({
    name: options.name,
    colour: presenceColour(doc.clientID),
    selectedTrackId: store.getState().selectedId,
    clip: null,
    notes: [],
    playhead: null,
    touching: null,
  })
  awareness.setLocalState(local)
  let ended = false
  let audio: ReturnType<typeof startSharedAudio> | null = null
  const share = (change: Partial<Presence>) => {
    if (ended) return
    const next = boundedPresence({ ...local, ...change })
    // Every setLocalState goes out as a message: an unchanged presence is not set again.
    if (sameJson(next, local)) return
    local = next
    awareness.setLocalState(local)
  }
  // The playhead: while playing, its position every PLAYHEAD_EVERY_MS (others move it on in
  // between); paused, only when it moves (a seek).
  const transport = options.transport
  const round = (s: number) => Math.round(s * 100) / 100
  const sample = () => {
    if (!transport) return
    const playing = transport.isPlaying()
    const seconds = round(transport.position())
    const was = local.playhead
    if (!was || was.playing !== playing || playing || was.seconds !== seconds) share({ playhead: { seconds, playing } })
  }
  const ticker = transport ? setInterval(sample, PLAYHEAD_EVERY_MS) : null
  sample()
  const leave = async () => {
    if (ended) return
    ended = true
    if (ticker) clearInterval(ticker)
    together.close()
    audio?.stop()
    unfollow()
    await sync.stop()
    awareness.destroy()
  }
  const unfollow = store.subscribe((s, before) => {
    // Another project opened (or a draft restored) in this studio: the session is over.
    if (store.collab.doc !== doc) return void leave().then(() => options.onEnded?.())
    if (s.selectedId !== before.selectedId) share({ selectedTrackId: s.selectedId })
  })
  const room = openProjectRoom(db, project.id)
  const onRefused = options.onRefused ?? ((reason: string) => console.warn(`[shared project ${project.id}] ${reason}`))
  const together = startPlayTogether({
    channel: room,
    transport: options.playTransport ?? mixerTransport,
    canSend: part !== 'viewer',
    onRefused,
  })
  const sync: ProjectSync = startProjectSync({
    doc,
    channel: room,
    log: {
      load: () => loadProjectUpdates(db, project.id),
      append: (update) => appendProjectUpdate(db, project.id, update),
      compact: (snapshot, throughId) => compactProjectUpdates(db, project.id, snapshot, throughId),
    },
    canWrite: part !== 'viewer',
    awareness,
    onRefused,
    onStoreFailed: options.onStoreFailed,
  })
  const io = options.audio === undefined ? storageAudioIo(db, project.id, options.userId) : options.audio
  const ready = sync.ready.then(() => {
    // First live session of this project: it starts as the owner's mix.
    if (seed && doc.getArray('tracks').length === 0 && doc.getMap('master').size === 0) store.collab.seed(seed, project)
    if (io && !ended)
      audio = startSharedAudio({
        tracks: () => store.getState().tracks,
        onTracks: (cb) => store.subscribe((s, before) => s.tracks !== before.tracks && cb()),
        canWrite: part !== 'viewer' && options.userId !== undefined,
        io,
        onStatus: options.onAudioStatus,
        onError: (e) => console.warn(`[shared project ${project.id}] audio: ${e instanceof Error ? e.message : String(e)}`),
      })
  })
  return {
    project,
    part,
    awareness,
    ready,
    together,
    share,
    leave,
  }
}

/** A colour per replica, spread round the hue circle, readable on the dark theme. */
export function presenceColour(clientId: number): string {
  return `hsl(${(clientId * 137.508) % 360} 80% 65%)`
}
