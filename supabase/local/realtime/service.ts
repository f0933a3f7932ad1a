import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import { callerFromToken, clientAddress, runAs, type Caller } from '../core/caller.ts'
import type { Database } from '../core/db.ts'
import { bindingReply, bindingWants, parseBindings, type Binding } from './bindings.ts'
import { decodeBroadcastPush, encodeBroadcast, type UserBroadcast } from './broadcast.ts'
import { PresenceRefused, PresenceRegistry, type PresenceDiff } from './presence.ts'
import { CHANGE_CHANNEL, parseChange, rowQuery, type RowChange } from './changes.ts'
import { decode, encode, reply, vsnOf, type Message, type Vsn } from './protocol.ts'

// Realtime at /realtime/v1/websocket: the part of Supabase Realtime's protocol that realtime-js
// (bundled with supabase-js 2.109) uses for postgres_changes. A client joins a channel (phx_join,
// with its access token and its bindings), gets each committed change of a published table that
// a binding wants and its RLS lets it read, sends heartbeats, updates its token (access_token)
// and leaves (phx_leave). Changes come from the database (NOTIFY cube_realtime, see changes.ts);
// every INSERT/UPDATE is re-read as each subscriber, so RLS decides exactly as for a REST read.
// A DELETE carries only the old row's primary key, as on Supabase, is not RLS-checked, and, as on
// hosted Realtime, cannot be filtered: it reaches only the bindings without a filter.
// Broadcast and presence work as on hosted Realtime for public channels: a broadcast reaches every
// other channel joined to the topic (the sender's own too with `self`, a reply with `ack`), presence
// keeps each channel's tracked state per key and sends presence_state on join and presence_diff on
// every change. Private channels (authorised through realtime.messages policies) are refused.

export const REALTIME_PATH = '/realtime/v1/websocket'
/**
 * Without any message a socket is closed after this: realtime-js heartbeats every 25 s, but a
 * background tab's timers may run only once a minute.
 */
const IDLE_MS = 120_000
const MAX_MESSAGE_BYTES = 1024 * 1024

interface Channel {
  topic: string
  joinRef: string | null
  caller: Caller
  bindings: Binding[]
  /** config.broadcast: receive one's own broadcasts; have them acknowledged. */
  self: boolean
  ack: boolean
  /** config.presence.key, or a random one as hosted Realtime gives when it is empty. */
  presenceKey: string
  presence: boolean
}

interface Connection {
  ws: WebSocket
  /** The socket's client address: what presence is bounded by. */
  address: string
  vsn: Vsn
  apiCaller: Caller
  channels: Map<string, Channel>
  lastSeen: number
}

export interface RealtimeService {
  /** Takes the upgrade when it is for Realtime; false leaves it to others. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean
  /** Connected sockets (the benchmark and tests read it). */
  connectionCount(): number
  /** Cuts every socket as a network drop would (tests of the client's rejoin). */
  dropConnections(): void
  close(): Promise<void>
}

export async function startRealtime(db: Database, jwtSecret: string): Promise<RealtimeService> {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES })
  const connections = new Set<Connection>()
  let nextBindingId = 1
  const nextId = () => nextBindingId++

  const send = (conn: Connection, message: Message) => {
    if (conn.ws.readyState === conn.ws.OPEN) conn.ws.send(encode(message, conn.vsn))
  }
  const presence = new PresenceRegistry()
  /** Every joined channel on `topic`, with its connection. */
  const members = function* (topic: string) {
    for (const conn of connections) {
      const channel = conn.channels.get(topic)
      if (channel) yield { conn, channel }
    }
  }
  const sendDiff = (topic: string, diff: PresenceDiff | undefined) => {
    if (!diff) return
    for (const { conn, channel } of members(topic))
      send(conn, { joinRef: channel.joinRef, ref: null, topic, event: 'presence_diff', payload: { ...diff } })
  }
  /** A channel goes away (phx_leave, a new join of its topic, a closed socket): what it tracked leaves. */
  const leave = (conn: Connection, topic: string) => {
    const channel = conn.channels.get(topic)
    if (!channel) return
    conn.channels.delete(topic)
    sendDiff(topic, presence.untrack(topic, channel))
  }
  function fanOut(conn: Connection, channel: Channel, message: UserBroadcast) {
    for (const target of members(channel.topic)) {
      if (target.channel === channel && !channel.self) continue
      if (target.conn.ws.readyState !== target.conn.ws.OPEN) continue
      if (target.conn.vsn === '2.0.0') target.conn.ws.send(encodeBroadcast(message))
      else if (!message.binary)
        send(target.conn, {
          joinRef: null,
          ref: null,
          topic: channel.topic,
          event: 'broadcast',
          payload: { type: 'broadcast', event: message.event, payload: message.payload, ...(message.meta ? { meta: message.meta } : {}) },
        })
    }
    if (channel.ack)
      send(conn, reply({ joinRef: message.joinRef, ref: message.ref, topic: channel.topic, event: 'broadcast', payload: {} }, 'ok', {}))
  }
  const systemError = (conn: Connection, channel: Channel, text: string) => {
    send(conn, {
      joinRef: channel.joinRef,
      ref: null,
      topic: channel.topic,
      event: 'system',
      payload: { channel: channel.topic.replace(/^realtime:/, ''), extension: 'system', message: text, status: 'error' },
    })
    send(conn, { joinRef: channel.joinRef, ref: null, topic: channel.topic, event: 'phx_close', payload: {} })
    conn.channels.delete(channel.topic)
  }

  async function callerOf(token: unknown, fallback: Caller): Promise<Caller | Error> {
    if (token === undefined || token === null) return fallback
    if (typeof token !== 'string') return new Error('access_token must be a string')
    try {
      return await callerFromToken(token, jwtSecret)
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error))
    }
  }

  async function onMessage(conn: Connection, message: Message) {
    const { topic, event, payload } = message
    if (topic === 'phoenix' && event === 'heartbeat') return send(conn, reply(message, 'ok', {}))
    if (event === 'phx_join') {
      const config = (payload.config ?? {}) as Record<string, unknown>
      const caller = await callerOf(payload.access_token, conn.apiCaller)
      if (caller instanceof Error) return send(conn, reply(message, 'error', { reason: caller.message }))
      if (config.private === true)
        return send(
          conn,
          reply(message, 'error', {
            reason:
              'Unauthorized: private channels need Realtime Authorization (realtime.messages policies), ' +
              'which the local backend does not serve',
          }),
        )
      const bindings = parseBindings(config.postgres_changes, nextId)
      if (bindings instanceof Error) return send(conn, reply(message, 'error', { reason: bindings.message }))
      const broadcast = (config.broadcast ?? {}) as Record<string, unknown>
      const presenceConfig = (config.presence ?? {}) as Record<string, unknown>
      const key = typeof presenceConfig.key === 'string' && presenceConfig.key !== '' ? presenceConfig.key : randomUUID()
      leave(conn, topic)
      conn.channels.set(topic, {
        topic,
        joinRef: message.joinRef,
        caller,
        bindings,
        self: broadcast.self === true,
        ack: broadcast.ack === true,
        presenceKey: key,
        presence: presenceConfig.enabled === true,
      })
      send(conn, reply(message, 'ok', { postgres_changes: bindings.map(bindingReply) }))
      if (presenceConfig.enabled === true)
        send(conn, { joinRef: message.joinRef, ref: null, topic, event: 'presence_state', payload: presence.state(topic) })
      if (bindings.length) {
        send(conn, {
          joinRef: message.joinRef,
          ref: null,
          topic,
          event: 'system',
          payload: {
            channel: topic.replace(/^realtime:/, ''),
            extension: 'postgres_changes',
            message: 'Subscribed to PostgreSQL',
            status: 'ok',
          },
        })
      }
      return
    }
    const channel = conn.channels.get(topic)
    if (!channel) return send(conn, reply(message, 'error', { reason: 'unmatched topic' }))
    if (event === 'phx_leave') {
      leave(conn, topic)
      send(conn, reply(message, 'ok', {}))
      return send(conn, { joinRef: channel.joinRef, ref: null, topic, event: 'phx_close', payload: {} })
    }
    if (event === 'access_token') {
      const caller = await callerOf(payload.access_token, conn.apiCaller)
      if (caller instanceof Error) return systemError(conn, channel, `Invalid token: ${caller.message}`)
      channel.caller = caller
      return send(conn, reply(message, 'ok', {}))
    }
    if (event === 'broadcast' && typeof payload.event === 'string') {
      const meta = payload.meta !== null && typeof payload.meta === 'object' ? (payload.meta as Record<string, unknown>) : undefined
      return fanOut(conn, channel, {
        joinRef: message.joinRef,
        ref: message.ref,
        topic,
        event: payload.event,
        meta,
        payload: payload.payload,
        binary: false,
      })
    }
    if (event === 'presence' && (payload.event === 'track' || payload.event === 'untrack')) {
      let diff: PresenceDiff | undefined
      try {
        diff =
          payload.event === 'track'
            ? presence.track(topic, channel, conn.address, channel.presenceKey, (payload.payload ?? {}) as Record<string, unknown>)
            : presence.untrack(topic, channel)
      } catch (error) {
        if (error instanceof PresenceRefused) return send(conn, reply(message, 'error', { reason: error.message }))
        throw error
      }
      send(conn, reply(message, 'ok', {}))
      return sendDiff(topic, diff)
    }
    send(conn, reply(message, 'error', { reason: `${event} is not served by the local backend` }))
  }

  // One change at a time, in commit order: a client sees a row's INSERT before its UPDATE.
  let queue: Promise<void> = Promise.resolve()
  const unlisten = await db.listen(CHANGE_CHANNEL, (payload) => {
    const change = parseChange(payload)
    if (change) queue = queue.then(() => deliver(change)).catch((error) => console.error('realtime:', error))
  })

  async function deliver(change: RowChange) {
    const targets: { conn: Connection; channel: Channel; bindings: Binding[] }[] = []
    const now = Date.now() / 1000
    for (const conn of connections) {
      for (const channel of conn.channels.values()) {
        const exp = channel.caller.claims.exp
        if (typeof exp === 'number' && exp < now) {
          systemError(conn, channel, 'Token has expired')
          continue
        }
        const bindings = channel.bindings.filter((b) => bindingWants(b, change.schema, change.table, change.type))
        if (bindings.length) targets.push({ conn, channel, bindings })
      }
    }
    if (!targets.length) return
    const base = {
      schema: change.schema,
      table: change.table,
      commit_timestamp: change.commitTimestamp,
      type: change.type,
      columns: [],
      errors: null,
    }
    if (change.type === 'DELETE') {
      // As hosted Realtime: a DELETE cannot be filtered (the row is gone, so nothing is left to test
      // or to check against RLS); it goes to the bindings without a filter, with the old key only.
      for (const { conn, channel, bindings } of targets) {
        const ids = bindings.filter((b) => !b.test).map((b) => b.id)
        if (ids.length)
          send(conn, {
            joinRef: null,
            ref: null,
            topic: channel.topic,
            event: 'postgres_changes',
            payload: { ids, data: { ...base, old_record: change.pk } },
          })
      }
      return
    }
    // The row as each distinct caller may see it (one read per caller, not per socket).
    const query = rowQuery(change)
    const reads = new Map<string, Promise<Record<string, unknown> | undefined>>()
    const readAs = (caller: Caller) => {
      const key = JSON.stringify([caller.role, caller.claims.sub ?? null, caller.claims])
      let read = reads.get(key)
      if (!read) {
        read = runAs(db, caller.role, caller.claims, (tx) => tx.query<{ row: string }>(query.text, query.values)).then(
          ({ rows }) => (rows[0] ? (JSON.parse(rows[0].row) as Record<string, unknown>) : undefined),
          () => undefined,
        )
        reads.set(key, read)
      }
      return read
    }
    await Promise.all(
      targets.map(async ({ conn, channel, bindings }) => {
        const record = await readAs(channel.caller)
        if (!record) return
        const ids = bindings.filter((b) => b.test?.(record) !== false).map((b) => b.id)
        if (!ids.length) return
        const data = { ...base, record, ...(change.type === 'UPDATE' ? { old_record: change.pk } : {}) }
        send(conn, { joinRef: null, ref: null, topic: channel.topic, event: 'postgres_changes', payload: { ids, data } })
      }),
    )
  }

  const idle = setInterval(() => {
    const cutoff = Date.now() - IDLE_MS
    for (const conn of connections) if (conn.lastSeen < cutoff) conn.ws.terminate()
  }, IDLE_MS / 4)
  idle.unref()

  return {
    handleUpgrade(req, socket, head) {
      const url = new URL(req.url ?? '/', 'http://local')
      if (url.pathname !== REALTIME_PATH && url.pathname !== `${REALTIME_PATH}/`) return false
      const refuse = (status: number, text: string) => {
        socket.end(
          `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${JSON.stringify({ message: text })}`,
        )
      }
      const vsn = vsnOf(url.searchParams.get('vsn'))
      if (!vsn) {
        refuse(400, 'Unsupported vsn')
        return true
      }
      const apikey = url.searchParams.get('apikey') ?? (typeof req.headers.apikey === 'string' ? req.headers.apikey : undefined)
      if (!apikey) {
        refuse(401, 'apikey is required')
        return true
      }
      callerFromToken(apikey, jwtSecret).then(
        (apiCaller) =>
          wss.handleUpgrade(req, socket, head, (ws) => {
            const conn: Connection = { ws, address: clientAddress(req), vsn, apiCaller, channels: new Map(), lastSeen: Date.now() }
            connections.add(conn)
            // One message at a time per socket: a join is answered before what follows it.
            let inbox: Promise<void> = Promise.resolve()
            ws.on('message', (data, isBinary) => {
              conn.lastSeen = Date.now()
              if (isBinary) {
                const pushed = decodeBroadcastPush(Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer))
                const channel = pushed && conn.channels.get(pushed.topic)
                if (pushed && channel) inbox = inbox.then(() => fanOut(conn, channel, pushed))
                return
              }
              const message = decode(data.toString(), vsn)
              if (!message) return
              inbox = inbox.then(() => onMessage(conn, message)).catch((error) => console.error('realtime:', error))
            })
            ws.on('close', () => {
              connections.delete(conn)
              for (const topic of [...conn.channels.keys()]) leave(conn, topic)
            })
            ws.on('error', () => ws.terminate())
          }),
        () => refuse(401, 'Invalid apikey'),
      )
      return true
    },
    connectionCount: () => connections.size,
    dropConnections() {
      for (const conn of connections) conn.ws.terminate()
    },
    async close() {
      clearInterval(idle)
      for (const conn of connections) conn.ws.terminate()
      connections.clear()
      await unlisten()
      await queue.catch(() => undefined)
      await new Promise<void>((resolve) => wss.close(() => resolve()))
    },
  }
}
