import { randomUUID } from 'node:crypto'

// Presence as hosted Realtime keeps it (Phoenix.Presence): per topic, per key, the metas each
// joined channel tracked, each with its own phx_ref. Clients get `presence_state` when they join
// and `presence_diff` ({joins, leaves}) whenever a channel tracks, re-tracks, untracks or leaves.

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
  key: string
  meta: Meta
}

export class PresenceRegistry {
  private readonly topics = new Map<string, Entry[]>()

  state(topic: string): PresenceState {
    const state: PresenceState = {}
    for (const { key, meta } of this.topics.get(topic) ?? []) (state[key] ??= { metas: [] }).metas.push(meta)
    return state
  }

  /** `owner` (one joined channel) tracks `payload` under `key`, replacing what it tracked before. */
  track(topic: string, owner: object, key: string, payload: Record<string, unknown>): PresenceDiff {
    const entries = this.topics.get(topic) ?? []
    const previous = entries.find((e) => e.owner === owner && e.key === key)
    const meta: Meta = { ...payload, phx_ref: randomUUID().replace(/-/g, '').slice(0, 20) }
    if (previous) meta.phx_ref_prev = previous.meta.phx_ref
    this.topics.set(topic, [...entries.filter((e) => e !== previous), { owner, key, meta }])
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
