/**
 * "Play together": collaborators in a live session who opt in hear the transport start at the
 * same musical position at the same instant. A press of Play by one of them goes out on the
 * project's room as a cue: the position (timeline seconds) and a start instant on the server's
 * clock a little ahead (START_DELAY_MS, time for the cue to travel and the graphs to schedule).
 * Each studio turns that instant into its own clock with its measured offset to the server
 * (src/lib/clock-offset.ts) and starts there; one that hears the cue late starts at the position
 * the others have reached by then. Pause is shared the same way, with the position it happened at,
 * so the next Play starts everyone from one place; and so is a seek: while playing, a new shared
 * start from where the playhead was put; paused, a pause there.
 *
 * Cues ride the room as MESSAGE_TRANSPORT messages beside the document's sync (which ignores
 * them), are never stored, and are trusted no more than anything else a peer sends: a cue that is
 * malformed, oversized or whose start is far from now is refused in words and changes nothing.
 * A creator who has not opted in ignores every cue. Viewers may opt in and hear the others' cues;
 * the room does not let them send (the owner and editors send), so a viewer's own Play stays local.
 */
import * as encoding from 'lib0/encoding'
import * as decoding from 'lib0/decoding'
import { localNow } from '../../lib/clock-offset.ts'
import { MESSAGE_TRANSPORT, type ProjectChannel } from './project-sync.ts'

/** How far ahead of the press a shared start is: the cue's trip and the listeners' scheduling. */
export const START_DELAY_MS = 300
/** A start further ahead than this is refused (a hostile peer must not schedule one for next week). */
export const MAX_AHEAD_MS = 5_000
/** A start further back than this is refused: too late to join in step. */
export const MAX_LATE_MS = 10_000
export const MAX_CUE_BYTES = 256
/** A mix is never longer than a day. */
const MAX_SECONDS = 24 * 3600

export type TransportCue =
  /** Play from `position` (timeline seconds) from server time `startAt` (ms since 1970). */
  | { kind: 'play'; position: number; startAt: number }
  /** Pause at `position`. */
  | { kind: 'stop'; position: number }

/** What plays in this studio: the mixer engine in the app (mixer-transport.ts), a fake in tests. */
export interface SharedTransport {
  /** Plays from `seconds` starting at local time `atMs` (this page's clock, localNow). */
  playAt(seconds: number, atMs: number): void
  /** Pauses with the playhead at `seconds`. */
  stopAt(seconds: number): void
  position(): number
  /** Whether it is playing (or about to start at a scheduled instant). */
  playing(): boolean
  /** Play together is off: whatever keeps the transport in step after a shared start may stop. */
  release?(): void
}

export interface PlayTogetherOptions {
  channel: Pick<ProjectChannel, 'send' | 'onMessage'>
  transport: SharedTransport
  /** Whether this creator's cues may go out (viewers: no; the room would drop them). */
  canSend: boolean
  /** This page's clock (ms since 1970); localNow by default. */
  now?: () => number
  startDelayMs?: number
  /** A refused cue, in words (the caller logs it). */
  onRefused?: (reason: string) => void
}

export interface PlayTogether {
  enabled(): boolean
  /** Opts in: `offset` gives server time minus this page's (ms), null until measured. */
  enable(offset: () => number | null): void
  disable(): void
  /** Play pressed here: true when it went out to the others and started here (false: play alone). */
  play(): boolean
  /** Pause pressed here: true when it went out and paused here (false: pause alone). */
  stop(): boolean
  /**
   * The playhead moved here (a click on the timeline): true when it went out and moved here
   * (false: seek alone). Playing, everyone starts again from there together; paused, everyone's
   * playhead moves there.
   */
  seek(seconds: number): boolean
  close(): void
}

const isSeconds = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= MAX_SECONDS

export function encodeCue(cue: TransportCue): Uint8Array {
  const body = cue.kind === 'play' ? { k: 'play', p: cue.position, at: cue.startAt } : { k: 'stop', p: cue.position }
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, MESSAGE_TRANSPORT)
  encoding.writeVarString(encoder, JSON.stringify(body))
  return encoding.toUint8Array(encoder)
}

/** A cue from a room message: null when the message is not one (the sync's), a reason when malformed. */
export function parseCue(raw: Uint8Array): { cue: TransportCue } | { refused: string } | null {
  const decoder = decoding.createDecoder(raw)
  let body: unknown
  try {
    if (decoding.readVarUint(decoder) !== MESSAGE_TRANSPORT) return null
  } catch {
    // Not even a type: the sync refuses it.
    return null
  }
  try {
    if (raw.byteLength > MAX_CUE_BYTES) return { refused: `a play-together cue of ${raw.byteLength} bytes (over ${MAX_CUE_BYTES})` }
    body = JSON.parse(decoding.readVarString(decoder))
  } catch (e) {
    return { refused: `a play-together cue that does not decode (${e instanceof Error ? e.message : String(e)})` }
  }
  const b = body && typeof body === 'object' ? (body as Record<string, unknown>) : {}
  if (!isSeconds(b.p)) return { refused: 'a play-together cue without a position in the mix' }
  if (b.k === 'stop') return { cue: { kind: 'stop', position: b.p } }
  if (b.k !== 'play') return { refused: `a play-together cue of unknown kind ${JSON.stringify(b.k)?.slice(0, 20)}` }
  if (typeof b.at !== 'number' || !Number.isFinite(b.at)) return { refused: 'a play-together cue without a start time' }
  return { cue: { kind: 'play', position: b.p, startAt: b.at } }
}

/**
 * Where a cue starts this studio: local start time and position. A start already past begins now,
 * at the position advanced by the lateness. A reason instead when the start is too far either way.
 */
export function localStart(
  cue: { position: number; startAt: number },
  offsetMs: number,
  nowMs: number,
): { atMs: number; seconds: number } | string {
  const atMs = cue.startAt - offsetMs
  if (atMs - nowMs > MAX_AHEAD_MS) return `a start ${Math.round((atMs - nowMs) / 1000)} s ahead (over ${MAX_AHEAD_MS / 1000} s)`
  const late = nowMs - atMs
  if (late > MAX_LATE_MS) return `a start ${Math.round(late / 1000)} s ago (over ${MAX_LATE_MS / 1000} s late)`
  return late > 0 ? { atMs: nowMs, seconds: Math.min(MAX_SECONDS, cue.position + late / 1000) } : { atMs, seconds: cue.position }
}

export function startPlayTogether(options: PlayTogetherOptions): PlayTogether {
  const { channel, transport, canSend } = options
  const now = options.now ?? localNow
  const delay = options.startDelayMs ?? START_DELAY_MS
  const refused = (why: string) => options.onRefused?.(`Refused ${why}.`)
  let offset: (() => number | null) | null = null

  const unsubscribe = channel.onMessage((raw) => {
    const parsed = parseCue(raw)
    if (!parsed) return
    if ('refused' in parsed) return refused(parsed.refused)
    const measured = offset?.() ?? null
    // Not opted in (or the clock is not measured yet): this studio goes on as it was.
    if (measured === null) return
    const { cue } = parsed
    if (cue.kind === 'stop') return transport.stopAt(cue.position)
    const start = localStart(cue, measured, now())
    if (typeof start === 'string') return refused(start)
    transport.playAt(start.seconds, start.atMs)
  })

  /** This creator's cues go out only when opted in, allowed to send and measured. */
  const sending = (): number | null => (canSend ? (offset?.() ?? null) : null)

  return {
    enabled: () => offset !== null,
    enable: (read) => void (offset = read),
    disable: () => {
      offset = null
      transport.release?.()
    },
    play() {
      const measured = sending()
      if (measured === null) return false
      const position = transport.position()
      const atMs = now() + delay
      channel.send(encodeCue({ kind: 'play', position, startAt: atMs + measured }))
      transport.playAt(position, atMs)
      return true
    },
    stop() {
      if (sending() === null) return false
      const position = transport.position()
      channel.send(encodeCue({ kind: 'stop', position }))
      transport.stopAt(position)
      return true
    },
    seek(seconds) {
      const measured = sending()
      if (measured === null || !isSeconds(seconds)) return false
      if (!transport.playing()) {
        channel.send(encodeCue({ kind: 'stop', position: seconds }))
        transport.stopAt(seconds)
        return true
      }
      const atMs = now() + delay
      channel.send(encodeCue({ kind: 'play', position: seconds, startAt: atMs + measured }))
      transport.playAt(seconds, atMs)
      return true
    },
    close() {
      offset = null
      transport.release?.()
      unsubscribe()
    },
  }
}
