/**
 * Keeps a project's shared document (project-doc.ts) in step with the other creators in it.
 *
 *   channel   a broadcast room for the project (src/backend/project-collaboration.ts over Supabase
 *             Realtime; an in-memory fake in tests): y-protocols sync messages, each one whole
 *   log       the stored updates (table project_updates, same module): what a creator who joins or
 *             comes back catches up from, alongside what peers answer on the channel
 *
 * On start, and again after each reconnect, the stored state is applied and a hello (this replica's
 * state vector) goes out; every peer answers with a step 2 holding what this replica lacks and a
 * step 1 of its own, which this replica answers with what the peer lacks (edits made offline), so
 * both sides end up whole. While connected each local change goes out as an update. An editor's
 * changes are also appended to the log, merged and sent at most once a second (a slider drag is one
 * row, not sixty); a viewer sends none. When the log has
 * grown past COMPACT_AFTER rows an editor replaces it with one snapshot of the document.
 *
 * Presence (y-protocols awareness, presence.ts: who is here, their colour, track, selection,
 * playhead and the control they move) rides the same room and is never stored; a presence message
 * over its bounds is refused; a creator who leaves is removed from the others' view at once.
 * Play-together cues (MESSAGE_TRANSPORT, play-together.ts) ride it too and are passed over here.
 *
 * Nothing received is trusted: a message over MAX_MESSAGE_BYTES or one that does not decode as a
 * Yjs update is refused before it touches the document, and reported through `onRefused`.
 */
import * as Y from 'yjs'
import * as syncProtocol from 'y-protocols/sync'
import { applyAwarenessUpdate, encodeAwarenessUpdate, removeAwarenessStates, type Awareness } from 'y-protocols/awareness'
import * as encoding from 'lib0/encoding'
import * as decoding from 'lib0/decoding'
import { refuseAwarenessUpdate } from './presence.ts'

/** A broadcast room: what one member sends, every other member receives. */
export interface ProjectChannel {
  send(message: Uint8Array): void
  /** Calls `handler` with each message another member sent; returns the unsubscribe. */
  onMessage(handler: (message: Uint8Array) => void): () => void
  /** Calls `handler` each time the room is joined again after a drop; returns the unsubscribe. */
  onRejoin(handler: () => void): () => void
  /**
   * Where the room has it, this member's presence as its last message (replacing the one before),
   * delivered to the others through onMessage like a sent one: how a viewer, who may not send,
   * is still seen in the room.
   */
  sendPresence?(message: Uint8Array): void
  close(): void
}

export interface StoredUpdate {
  id: number
  update: Uint8Array
}

/** The server's copy of a project's document: a snapshot and the updates since, oldest first. */
export interface ProjectUpdateLog {
  load(): Promise<StoredUpdate[]>
  append(update: Uint8Array): Promise<void>
  /** Replaces every row up to `throughId` with one snapshot. */
  compact(snapshot: Uint8Array, throughId: number): Promise<void>
}

/** The largest message or stored update accepted (the server refuses larger rows as well). */
export const MAX_MESSAGE_BYTES = 256 * 1024
/** Stored rows beyond which an editor folds the log into one snapshot. */
export const COMPACT_AFTER = 200
/** How long local changes gather before they are stored as one row. */
export const STORE_EVERY_MS = 1000

export interface ProjectSyncOptions {
  doc: Y.Doc
  channel: ProjectChannel
  log: ProjectUpdateLog
  /** Editors and the owner write; a viewer only receives. */
  canWrite: boolean
  /** A refused message or stored row, in words (the caller logs it). */
  onRefused?: (reason: string) => void
  /** Presence (who is here, their colour, selected track): relayed, never stored. */
  awareness?: Awareness
  /** A change could not be stored (it stays in the document and goes out with the next store). */
  onStoreFailed?: (error: unknown) => void
}

export interface ProjectSync {
  /** Resolves once the stored state is applied and the channel has been asked for the rest. */
  ready: Promise<void>
  /** Stores what is still waiting (an editor's last changes). */
  flush(): Promise<void>
  stop(): Promise<void>
}

/** Sync step 1 from a replica that just joined: answered with step 2 and a step 1 in return. */
export const MESSAGE_HELLO = 100

/** A y-protocols awareness update (presence). */
export const MESSAGE_AWARENESS = 101

/** A play-together cue (play-together.ts): handled there, passed over here. */
export const MESSAGE_TRANSPORT = 102

/** The origin of changes that came from the channel or the log (never sent or stored again). */
export const REMOTE = Symbol('project sync')

/** Why a received update cannot be applied, or null when it is a well-formed Yjs update. */
export function refuseUpdate(update: Uint8Array): string | null {
  if (update.byteLength > MAX_MESSAGE_BYTES) return `an update of ${update.byteLength} bytes is over the ${MAX_MESSAGE_BYTES}-byte limit`
  try {
    Y.decodeUpdate(update)
    return null
  } catch (e) {
    return `an update that is not a Yjs update (${e instanceof Error ? e.message : String(e)})`
  }
}

/** One snapshot of everything the updates hold, deleted content collected: the compacted log. */
export function compactUpdates(updates: readonly Uint8Array[]): Uint8Array {
  const doc = new Y.Doc()
  for (const u of updates) Y.applyUpdate(doc, u)
  return Y.encodeStateAsUpdate(doc)
}

const message = (write: (encoder: encoding.Encoder) => void): Uint8Array => {
  const encoder = encoding.createEncoder()
  write(encoder)
  return encoding.toUint8Array(encoder)
}

export function startProjectSync(options: ProjectSyncOptions): ProjectSync {
  const { doc, channel, log, canWrite } = options
  const refused = (reason: string) => options.onRefused?.(reason)
  let pending: Uint8Array[] = []
  let timer: ReturnType<typeof setTimeout> | null = null
  let storing: Promise<void> = Promise.resolve()
  let stopped = false

  const apply = (update: Uint8Array, from: string) => {
    const why = refuseUpdate(update)
    if (why) return refused(`Refused ${why} from ${from}.`)
    Y.applyUpdate(doc, update, REMOTE)
  }

  const onMessage = (raw: Uint8Array) => {
    if (stopped) return
    if (raw.byteLength > MAX_MESSAGE_BYTES)
      return refused(`Refused a message of ${raw.byteLength} bytes from the channel (over ${MAX_MESSAGE_BYTES}).`)
    try {
      const decoder = decoding.createDecoder(raw)
      const type = decoding.readVarUint(decoder)
      if (type === syncProtocol.messageYjsSyncStep1 || type === MESSAGE_HELLO) {
        const stateVector = decoding.readVarUint8Array(decoder)
        Y.decodeStateVector(stateVector)
        // Answer with what the asker lacks (a step 1 only answers, so this never loops).
        const diff = Y.encodeStateAsUpdate(doc, stateVector)
        if (diff.byteLength > MAX_MESSAGE_BYTES) refused(`Not sent: a catch-up of ${diff.byteLength} bytes (the stored log has it).`)
        // A viewer's document may hold edits of its own that were never allowed out.
        else if (canWrite && diff.byteLength > 2)
          channel.send(message((e) => (encoding.writeVarUint(e, syncProtocol.messageYjsSyncStep2), encoding.writeVarUint8Array(e, diff))))
        if (type === MESSAGE_HELLO) {
          channel.send(message((e) => syncProtocol.writeSyncStep1(e, doc)))
          // The newcomer learns who is here too.
          if (options.awareness) sendAwareness([doc.clientID])
        }
        return
      }
      if (type === MESSAGE_AWARENESS) {
        const awareness = options.awareness
        if (!awareness) return
        const update = decoding.readVarUint8Array(decoder)
        const why = refuseAwarenessUpdate(awareness, update)
        if (why) return refused(`Refused ${why} from the channel.`)
        const known = new Set(awareness.getStates().keys())
        applyAwarenessUpdate(awareness, update, REMOTE)
        // A creator seen for the first time learns who is here too: a viewer, whose hello the room
        // refuses, is only heard through its presence.
        if ([...awareness.getStates().keys()].some((id) => !known.has(id) && id !== doc.clientID)) sendAwareness([doc.clientID])
        return
      }
      if (type === MESSAGE_TRANSPORT) return
      if (type === syncProtocol.messageYjsSyncStep2 || type === syncProtocol.messageYjsUpdate)
        return apply(decoding.readVarUint8Array(decoder), 'the channel')
      refused(`Refused a channel message of unknown type ${type}.`)
    } catch (e) {
      refused(`Refused a channel message that does not decode (${e instanceof Error ? e.message : String(e)}).`)
    }
  }

  const store = (): Promise<void> => {
    if (timer) clearTimeout(timer)
    timer = null
    if (pending.length === 0) return storing
    const batch = Y.mergeUpdates(pending)
    pending = []
    storing = storing
      .then(() => log.append(batch))
      .catch((e: unknown) => {
        // Kept for the next store: the row is what a late joiner catches up from.
        pending.unshift(batch)
        options.onStoreFailed?.(e)
      })
    return storing
  }

  const onUpdate = (update: Uint8Array, origin: unknown) => {
    if (stopped || origin === REMOTE || !canWrite) return
    channel.send(message((e) => syncProtocol.writeUpdate(e, update)))
    pending.push(update)
    timer ??= setTimeout(() => void store(), STORE_EVERY_MS)
  }

  const sendAwareness = (clients: number[]) => {
    const awareness = options.awareness
    if (!awareness || stopped) return
    const update = encodeAwarenessUpdate(awareness, clients)
    const framed = message((e) => (encoding.writeVarUint(e, MESSAGE_AWARENESS), encoding.writeVarUint8Array(e, update)))
    // A viewer's broadcasts are refused by the room; its presence goes as the room's presence.
    if (!canWrite && channel.sendPresence) channel.sendPresence(framed)
    else channel.send(framed)
  }
  const onAwareness = ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
    if (origin !== REMOTE) sendAwareness([...added, ...updated, ...removed])
  }
  options.awareness?.on('update', onAwareness)
  const hello = () => {
    if (stopped) return
    channel.send(message((e) => (encoding.writeVarUint(e, MESSAGE_HELLO), encoding.writeVarUint8Array(e, Y.encodeStateVector(doc)))))
    sendAwareness([doc.clientID])
  }
  const unsubscribe = channel.onMessage(onMessage)
  const unsubscribeRejoin = channel.onRejoin(hello)
  doc.on('update', onUpdate)

  const ready = (async () => {
    const rows = await log.load()
    const good: Uint8Array[] = []
    for (const row of rows) {
      const why = refuseUpdate(row.update)
      if (why) refused(`Skipped stored row ${row.id}: ${why}.`)
      else good.push(row.update)
    }
    if (good.length > 0) Y.applyUpdate(doc, Y.mergeUpdates(good), REMOTE)
    hello()
    const last = rows[rows.length - 1]
    if (canWrite && last && rows.length > COMPACT_AFTER) {
      const snapshot = Y.encodeStateAsUpdate(doc)
      // A document too big for one row keeps its log; compaction is an optimisation only.
      if (snapshot.byteLength <= MAX_MESSAGE_BYTES) await log.compact(snapshot, last.id)
    }
  })()

  return {
    ready,
    flush: store,
    async stop() {
      await store()
      // Others see this creator leave at once rather than after the presence timeout.
      if (options.awareness) removeAwarenessStates(options.awareness, [doc.clientID], 'left')
      options.awareness?.off('update', onAwareness)
      stopped = true
      doc.off('update', onUpdate)
      unsubscribe()
      unsubscribeRejoin()
      channel.close()
    },
  }
}
