/**
 * What each creator in a live session shows the others (y-protocols awareness, relayed over the
 * project's room and never stored): name and colour, the track they are on, the clip selected in
 * the timeline, the notes selected in the piano roll, the playhead, and the control they are
 * moving right now.
 *
 * Presence is size-bounded on both sides: the local state is cut to the limits below before it is
 * set, and a received awareness update is refused whole when it is too large, carries a state over
 * MAX_PRESENCE_BYTES, or would bring the number of known creators past MAX_PRESENCE_CLIENTS. What
 * is shown of a peer is read through sanitizePresence, so a hostile peer's junk shows as nothing.
 */
import * as decoding from 'lib0/decoding'
import type { Awareness } from 'y-protocols/awareness'

/** The control a creator is moving: a track's (trackId) or the master's (trackId null). */
export interface ControlRef {
  trackId: string | null
  control: string
}

export interface Playhead {
  /** Where the creator's transport is, in seconds of the mix. */
  seconds: number
  playing: boolean
}

export interface Presence {
  name: string
  colour: string
  selectedTrackId: string | null
  clip: { trackId: string; clipId: string } | null
  /** Ids of the notes selected in the piano roll (of selectedTrackId), at most MAX_PRESENCE_NOTES. */
  notes: string[]
  playhead: Playhead | null
  touching: ControlRef | null
}

/** A peer as shown: its presence, its awareness id, and when its playhead was last heard (ms, local clock). */
export interface Peer extends Presence {
  clientId: number
  heardAt: number
}

/** One creator's state as JSON, at most. */
export const MAX_PRESENCE_BYTES = 2048
/** One awareness message, at most (a hello answer carries one state, a leave a few). */
export const MAX_AWARENESS_MESSAGE_BYTES = 8 * 1024
/** Creators known in one session, at most (this one included). */
export const MAX_PRESENCE_CLIENTS = 32
export const MAX_PRESENCE_NOTES = 32
const MAX_NAME = 40
const MAX_ID = 100
const MAX_CONTROL = 32
/** A mix is never longer than a day. */
const MAX_SECONDS = 24 * 3600
/** How often a playing transport's position goes out (a peer moves the line on in between). */
export const PLAYHEAD_EVERY_MS = 250

const COLOUR = /^(#[0-9a-f]{3,8}|hsl\(\d+(\.\d+)? \d+% \d+%\))$/i

const text = (v: unknown, max: number): string | null => (typeof v === 'string' && v.length > 0 && v.length <= max ? v : null)
const record = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null

/** A presence from whatever a peer sent: fields that are missing, too long or malformed read as none. */
export function sanitizePresence(raw: unknown): Presence | null {
  const s = record(raw)
  const name = text(s?.name, MAX_NAME)
  if (!s || !name) return null
  const clip = record(s.clip)
  const clipTrack = text(clip?.trackId, MAX_ID)
  const clipId = text(clip?.clipId, MAX_ID)
  const head = record(s.playhead)
  const seconds = head?.seconds
  const touching = record(s.touching)
  const control = text(touching?.control, MAX_CONTROL)
  const touchTrack = touching?.trackId === null ? null : text(touching?.trackId, MAX_ID)
  return {
    name,
    colour: typeof s.colour === 'string' && COLOUR.test(s.colour) ? s.colour : '#888888',
    selectedTrackId: text(s.selectedTrackId, MAX_ID),
    clip: clipTrack && clipId ? { trackId: clipTrack, clipId } : null,
    notes: Array.isArray(s.notes) ? s.notes.slice(0, MAX_PRESENCE_NOTES).filter((n): n is string => text(n, MAX_ID) !== null) : [],
    playhead:
      typeof seconds === 'number' && Number.isFinite(seconds)
        ? { seconds: Math.min(MAX_SECONDS, Math.max(0, seconds)), playing: head?.playing === true }
        : null,
    touching: control && (touchTrack !== null || touching?.trackId === null) ? { trackId: touchTrack, control } : null,
  }
}

/** The others in the session, each once, in a stable order (by awareness id). */
export function peersOf(awareness: Awareness, heard: ReadonlyMap<number, number> = new Map()): Peer[] {
  const out: Peer[] = []
  for (const [clientId, state] of awareness.getStates()) {
    if (clientId === awareness.clientID) continue
    const p = sanitizePresence(state)
    if (p) out.push({ ...p, clientId, heardAt: heard.get(clientId) ?? 0 })
  }
  return out.sort((a, b) => a.clientId - b.clientId)
}

/** Where a peer's playhead is now: its last report, moved on by the time since it was heard while playing. */
export function peerPosition(peer: Pick<Peer, 'playhead' | 'heardAt'>, now: number): number | null {
  if (!peer.playhead) return null
  const { seconds, playing } = peer.playhead
  return playing ? Math.min(MAX_SECONDS, seconds + Math.max(0, now - peer.heardAt) / 1000) : seconds
}

/**
 * Why a received awareness update must not be applied, or null when it is within bounds. It is read
 * as y-protocols writes it: a count, then per creator its id, clock and state as a JSON string.
 */
export function refuseAwarenessUpdate(awareness: Awareness, update: Uint8Array): string | null {
  if (update.byteLength > MAX_AWARENESS_MESSAGE_BYTES)
    return `a presence message of ${update.byteLength} bytes (over ${MAX_AWARENESS_MESSAGE_BYTES})`
  const decoder = decoding.createDecoder(update)
  const count = decoding.readVarUint(decoder)
  const known = new Set(awareness.getStates().keys())
  for (let i = 0; i < count; i++) {
    const clientId = decoding.readVarUint(decoder)
    decoding.readVarUint(decoder)
    const json = decoding.readVarString(decoder)
    // UTF-16 length is a lower bound of the bytes; a state near the limit is refused either way.
    if (json.length > MAX_PRESENCE_BYTES) return `a presence state of ${json.length} characters (over ${MAX_PRESENCE_BYTES})`
    if (json !== 'null') known.add(clientId)
  }
  if (known.size > MAX_PRESENCE_CLIENTS) return `presence for more than ${MAX_PRESENCE_CLIENTS} creators`
  return null
}

/** This creator's presence with every field cut to the limits (what is set as the local state). */
export function boundedPresence(p: Presence): Presence {
  return sanitizePresence({ ...p, name: p.name.slice(0, MAX_NAME) || 'a creator' })!
}
