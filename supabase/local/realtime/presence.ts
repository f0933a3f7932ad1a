import { randomUUID } from 'node:crypto'

// Presence as hosted Realtime keeps it (Phoenix.Presence): per topic, per key, the metas each
// joined channel tracked, each with its own phx_ref. Clients get `presence_state` when they join
// and `presence_diff` ({joins, leaves}) whenever a channel tracks, re-tracks, untracks or leaves.
// Presence is what "N listening now" counts, and every tracked payload is relayed to every member,
// so both are bounded: a client address holds at most MAX_PRESENCES_PER_ADDRESS channels present
// on a topic (one visitor with the public key opening thirty channels showed thirty listeners), and
// a tracked payload has at most hosted Realtime's keys per object and a small size.

/** Channels of one client address present on one topic at once (a household's few players). */
export const MAX_PRESENCES_PER_ADDRESS = 4
/** Hosted Realtime's "presence keys per object". */
export const MAX_PRESENCE_FIELDS = 10
/** Bytes of a tracked payload as JSON: enough for a name, an avatar URL and a status. */
export const MAX_PRESENCE_BYTES = 2048

/** Why a track is refused, in words (the reason of the push's error reply); undefined when it may. */
export function presencePayloadProblem(payload: unknown): string | undefined {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return 'A presence payload is an object'
  const fields = Object.keys(payload).length
  if (fields > MAX_PRESENCE_FIELDS) return `A presence payload has at most ${MAX_PRESENCE_FIELDS} keys (this one has ${fields})`
  const bytes = Buffer.byteLength(JSON.stringify(payload), 'utf8')
  if (bytes > MAX_PRESENCE_BYTES) return `A presence payload is at most ${MAX_PRESENCE_BYTES} bytes as JSON (this one is ${bytes})`
  return undefined
}

export interface Meta {
  phx_ref: string
  phx_ref_prev?: string
  [field: string]: unknown
}

export type PresenceState = Record<string, { metas: Meta[] }>

export interface PresenceDiff {
  joins: PresenceState
  leaves: PresenceState
}

interface Entry {
  owner: object
  /** The client address of the owner's socket. */
  address: string
  key: string
  meta: Meta
}

export class PresenceRefused extends Error {}

export class PresenceRegistry {
  private readonly topics = new Map<string, Entry[]>()

  state(topic: string): PresenceState {
    const state: PresenceState = {}
    for (const { key, meta } of this.topics.get(topic) ?? []) (state[key] ??= { metas: [] }).metas.push(meta)
    return state
  }

  /**
   * `owner` (one joined channel, of a socket from `address`) tracks `payload` under `key`, replacing
   * what it tracked before; throws PresenceRefused when the payload or the address is over its bound.
   */
  track(topic: string, owner: object, address: string, key: string, payload: Record<string, unknown>): PresenceDiff {
    const problem = presencePayloadProblem(payload)
    if (problem) throw new PresenceRefused(problem)
    const entries = this.topics.get(topic) ?? []
    const previous = entries.find((e) => e.owner === owner && e.key === key)
    if (!entries.some((e) => e.owner === owner)) {
      const owners = new Set(entries.filter((e) => e.address === address).map((e) => e.owner))
      if (owners.size >= MAX_PRESENCES_PER_ADDRESS)
        throw new PresenceRefused(`At most ${MAX_PRESENCES_PER_ADDRESS} channels from one address may be present on a topic`)
    }
    const meta: Meta = { ...payload, phx_ref: randomUUID().replace(/-/g, '').slice(0, 20) }
    if (previous) meta.phx_ref_prev = previous.meta.phx_ref
    this.topics.set(topic, [...entries.filter((e) => e !== previous), { owner, address, key, meta }])
    return { joins: { [key]: { metas: [meta] } }, leaves: previous ? { [key]: { metas: [previous.meta] } } : {} }
  }

  /** Everything `owner` tracked on the topic leaves (untrack, phx_leave, a closed socket); undefined when it tracked nothing. */
  untrack(topic: string, owner: object): PresenceDiff | undefined {
    const entries = this.topics.get(topic) ?? []
    const gone = entries.filter((e) => e.owner === owner)
    if (!gone.length) return undefined
    const left = entries.filter((e) => e.owner !== owner)
    if (left.length) this.topics.set(topic, left)
    else this.topics.delete(topic)
    const leaves: PresenceState = {}
    for (const { key, meta } of gone) (leaves[key] ??= { metas: [] }).metas.push(meta)
    return { joins: {}, leaves }
  }
}
