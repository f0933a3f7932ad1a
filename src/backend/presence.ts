import { supabase } from './client.ts'

/** A Realtime presence room: how many are present on its topic, and whether this tab is one of them. */
export interface PresenceRoom {
  setPresent(present: boolean): void
  close(): void
}

/**
 * Joins `topic` as a public Realtime channel with presence, as hosted Realtime serves it. Each tab
 * is present under a random key and sends nothing else, so no account is named and one listener
 * with two players counts twice. `onCount` gets the number of keys present after every sync
 * (presence_state on join, presence_diff on each track, untrack or leave).
 */
export function joinPresenceRoom(topic: string, onCount: (present: number) => void): PresenceRoom {
  const client = supabase()
  const channel = client.channel(topic, { config: { presence: { key: crypto.randomUUID() } } })
  let present = false
  let joined = false
  let closed = false
  // Track and untrack only once joined; a join (or a rejoin after the socket dropped) tracks again.
  const send = () => {
    if (joined && !closed) void (present ? channel.track({ since: new Date().toISOString() }) : channel.untrack())
  }
  channel.on('presence', { event: 'sync' }, () => {
    if (!closed) onCount(Object.keys(channel.presenceState()).length)
  })
  channel.subscribe((status) => {
    joined = status === 'SUBSCRIBED'
    if (joined && present) send()
  })
  return {
    setPresent(next) {
      if (next === present) return
      present = next
      send()
    },
    close() {
      closed = true
      void client.removeChannel(channel)
    },
  }
}
