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

export type ProjectPart = 'owner' | 'editor' | 'viewer'

/** What each creator in a session shows the others. */
export interface Presence {
  name: string
  colour: string
  selectedTrackId: string | null
}

export interface SharedSession {
  project: OpenProject
  part: ProjectPart
  /** Who is in the project now (this creator included); relayed, never stored. */
  awareness: Awareness
  /** Resolves once the stored state and the room's answers are in. */
  ready: Promise<void>
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
}

export function joinSharedProject(options: JoinOptions): SharedSession {
  const { db, project, part } = options
  const store = options.store ?? useMixerStore
  const open = store.getState()
  const seed = part === 'owner' ? { tracks: open.tracks, master: open.master, tempo: open.tempo } : null
  const doc = new Y.Doc()
  store.collab.useDoc(doc, project)
  const awareness = new Awareness(doc)
  const presence = (): Presence => ({
    name: options.name,
    colour: presenceColour(doc.clientID),
    selectedTrackId: store.getState().selectedId,
  })
  awareness.setLocalState(presence())
  let ended = false
  const leave = async () => {
    if (ended) return
    ended = true
    unfollow()
    await sync.stop()
    awareness.destroy()
  }
  const unfollow = store.subscribe((s, before) => {
    // Another project opened (or a draft restored) in this studio: the session is over.
    if (store.collab.doc !== doc) return void leave().then(() => options.onEnded?.())
    if (s.selectedId !== before.selectedId) awareness.setLocalStateField('selectedTrackId', s.selectedId)
  })
  const room = openProjectRoom(db, project.id)
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
    onRefused: options.onRefused ?? ((reason) => console.warn(`[shared project ${project.id}] ${reason}`)),
    onStoreFailed: options.onStoreFailed,
  })
  const ready = sync.ready.then(() => {
    // First live session of this project: it starts as the owner's mix.
    if (seed && doc.getArray('tracks').length === 0 && doc.getMap('master').size === 0) store.collab.seed(seed, project)
  })
  return {
    project,
    part,
    awareness,
    ready,
    leave,
  }
}

/** A colour per replica, spread round the hue circle, readable on the dark theme. */
export function presenceColour(clientId: number): string {
  return `hsl(${(clientId * 137.508) % 360} 80% 65%)`
}

/** The others in the session, each once, from the awareness states. */
export function peersOf(awareness: Awareness): Presence[] {
  return [...awareness.getStates().entries()]
    .filter(([id, state]) => id !== awareness.clientID && typeof state.name === 'string')
    .map(([, state]) => ({
      name: String(state.name),
      colour: typeof state.colour === 'string' ? state.colour : '#888',
      selectedTrackId: typeof state.selectedTrackId === 'string' ? state.selectedTrackId : null,
    }))
}
