import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import type { ServerResponse } from 'node:http'
import { callerFromToken, clientAddress, requestHeaders, runAs, type Caller } from '../core/caller.ts'
import type { Database } from '../core/db.ts'
import { readPolicies, writePolicies, type AuthorizationContext, type Extension, type Policies } from './authorization.ts'
import { bindingReply, bindingWants, parseBindings, type Binding } from './bindings.ts'
import { handleBroadcastRequest, type RestBroadcast } from './rest-broadcast.ts'
import { checkBindings, passingBindings } from './subscriptions.ts'
import { decodeBroadcastPush, encodeBroadcast, type UserBroadcast } from './broadcast.ts'
import { PresenceRefused, PresenceRegistry, type PresenceDiff } from './presence.ts'
import { CHANGE_CHANNEL, parseChange, rowQuery, type RowChange } from './changes.ts'
import { decode, encode, reply, vsnOf, type Message, type Vsn } from './protocol.ts'

// Realtime at /realtime/v1/websocket: the part of Supabase Realtime's protocol that realtime-js
// (bundled with supabase-js 2.109) uses. A client joins a channel (phx_join, with its access token,
// its bindings and whether the channel is private), gets each committed change of a published table
// that a binding wants and its RLS lets it read, sends heartbeats, updates its token (access_token)
// and leaves (phx_leave). Changes come from the database (NOTIFY cube_realtime, see changes.ts);
// every INSERT/UPDATE is re-read as each subscriber, so RLS decides exactly as for a REST read, and
// filters (filters.ts) are evaluated by PostgreSQL. A DELETE, as on hosted, carries the old row's
// replica identity, is matched on it (a filter on a column it does not carry fails) and is not
// RLS-checked; on a table with RLS its old_record is only the primary key.
// Broadcast and presence work as on hosted Realtime: a broadcast reaches every other channel joined
// to the topic (the sender's own too with `self`, a reply with `ack`), presence keeps each channel's
// tracked state per key and sends presence_state on join and presence_diff on every change. A
// private channel (config.private) is a topic apart from the public one of the same name, and
// Realtime Authorization (authorization.ts) decides who joins it, sends to it and tracks on it.
// Broadcasts also come over REST (rest-broadcast.ts).

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
  /** config.private: authorised by realtime.messages policies, and apart from the public topic. */
  private: boolean
  /** What the policies allowed so far (private channels; undefined: not checked yet). */
  policies: Policies
  caller: Caller
  /** The access token the caller came from (undefined: the socket's apikey). */
  token: string | undefined
  /** A filter that could not be served: the channel gets no changes (hosted subscribes all or none). */
  changesOff: boolean
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
  /** The upgrade request's headers, as policies read them (request.headers). */
  headers: Record<string, string>
  channels: Map<string, Channel>
  lastSeen: number
}

export interface RealtimeService {
  /** Takes the upgrade when it is for Realtime; false leaves it to others. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean
  /** Answers Realtime's REST API (broadcast); false leaves the request to others. */
  handleRequest(req: IncomingMessage, res: ServerResponse): Promise<boolean>
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
  /** Public and private channels of one name are different topics (hosted's tenant topics). */
  const topicKey = (topic: string, isPrivate: boolean) => `${isPrivate ? 'private' : 'public'}|${topic}`
  /** Every joined channel on `topic` (public or private), with its connection. */
  const members = function* (topic: string, isPrivate: boolean) {
    for (const conn of connections) {
      const channel = conn.channels.get(topic)
      if (channel && channel.private === isPrivate) yield { conn, channel }
    }
  }
  /** A private channel's member gets presence only when its policies let it read presence. */
  const readsPresence = (channel: Channel) => !channel.private || channel.policies.presenceRead === true
  const readsBroadcast = (channel: Channel) => !channel.private || channel.policies.broadcastRead === true
  const sendDiff = (topic: string, isPrivate: boolean, diff: PresenceDiff | undefined) => {
    if (!diff) return
    for (const { conn, channel } of members(topic, isPrivate))
      if (readsPresence(channel)) send(conn, { joinRef: channel.joinRef, ref: null, topic, event: 'presence_diff', payload: { ...diff } })
  }
  /** A channel goes away (phx_leave, a new join of its topic, a closed socket): what it tracked leaves. */
  const leave = (conn: Connection, topic: string) => {
    const channel = conn.channels.get(topic)
    if (!channel) return
    conn.channels.delete(topic)
    sendDiff(topic, channel.private, presence.untrack(topicKey(topic, channel.private), channel))
  }
  /** A broadcast reaches the topic's members (all but `except`) that may read it. */
  function deliverBroadcast(topic: string, isPrivate: boolean, message: UserBroadcast, except?: Channel) {
    for (const target of members(topic, isPrivate)) {
      if (target.channel === except || !readsBroadcast(target.channel)) continue
      if (target.conn.ws.readyState !== target.conn.ws.OPEN) continue
      if (target.conn.vsn === '2.0.0') target.conn.ws.send(encodeBroadcast({ ...message, topic }))
      else if (!message.binary)
        send(target.conn, {
          joinRef: null,
          ref: null,
          topic,
          event: 'broadcast',
          payload: { type: 'broadcast', event: message.event, payload: message.payload, ...(message.meta ? { meta: message.meta } : {}) },
        })
    }
  }
  const contextOf = (conn: Connection, channel: Channel): AuthorizationContext => ({
    caller: channel.caller,
    topic: channel.topic.replace(/^realtime:/, ''),
    headers: conn.headers,
  })
  /** The channel's write policies for `extension`, checked once per token as hosted caches them. */
  async function mayWrite(conn: Connection, channel: Channel, extension: Extension): Promise<boolean> {
    if (!channel.private) return true
    const key = extension === 'broadcast' ? 'broadcastWrite' : 'presenceWrite'
    if (channel.policies[key] === undefined) {
      const extensions: Extension[] = channel.presence || extension === 'presence' ? ['broadcast', 'presence'] : ['broadcast']
      if (extension === 'presence' && channel.policies.presenceRead === undefined)
        Object.assign(channel.policies, await readPolicies(db, contextOf(conn, channel), ['presence']))
      const written = await writePolicies(db, contextOf(conn, channel), extensions)
      Object.assign(channel.policies, { broadcastWrite: false, presenceWrite: false }, written)
    }
    return channel.policies[key] === true
  }
  async function fanOut(conn: Connection, channel: Channel, message: UserBroadcast) {
    // As hosted: a broadcast the policies do not allow is dropped without an answer.
    if (!(await mayWrite(conn, channel, 'broadcast'))) return
    deliverBroadcast(channel.topic, channel.private, message, channel.self ? undefined : channel)
    if (channel.ack)
      send(conn, reply({ joinRef: message.joinRef, ref: message.ref, topic: channel.topic, event: 'broadcast', payload: {} }, 'ok', {}))
  }
  const systemMessage = (conn: Connection, channel: Channel, extension: string, status: 'ok' | 'error', text: string) =>
    send(conn, {
      joinRef: channel.joinRef,
      ref: null,
      topic: channel.topic,
      event: 'system',
      payload: { channel: channel.topic.replace(/^realtime:/, ''), extension, message: text, status },
    })
  /** Hosted's shutdown of a channel: a system error, then the channel closes. */
  const systemError = (conn: Connection, channel: Channel, text: string) => {
    systemMessage(conn, channel, 'system', 'error', text)
    send(conn, { joinRef: channel.joinRef, ref: null, topic: channel.topic, event: 'phx_close', payload: {} })
    leave(conn, channel.topic)
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
    if (event === 'phx_join') {
      const config = (payload.config ?? {}) as Record<string, unknown>
      const caller = await callerOf(payload.access_token, conn.apiCaller)
      if (caller instanceof Error) return send(conn, reply(message, 'error', { reason: caller.message }))
      const parsed = parseBindings(config.postgres_changes, nextId)
      if (parsed instanceof Error) return send(conn, reply(message, 'error', { reason: parsed.message }))
      const { bindings } = parsed
      const broadcast = (config.broadcast ?? {}) as Record<string, unknown>
      const presenceConfig = (config.presence ?? {}) as Record<string, unknown>
      const key = typeof presenceConfig.key === 'string' && presenceConfig.key !== '' ? presenceConfig.key : randomUUID()
      const channel: Channel = {
        topic,
        joinRef: message.joinRef,
        private: config.private === true,
        policies: {},
        caller,
        token: typeof payload.access_token === 'string' ? payload.access_token : undefined,
        changesOff: false,
        bindings,
        self: broadcast.self === true,
        ack: broadcast.ack === true,
        presenceKey: key,
        presence: presenceConfig.enabled === true,
      }
      if (channel.private) {
        const subTopic = topic.replace(/^realtime:/, '')
        channel.policies = await readPolicies(db, contextOf(conn, channel), channel.presence ? ['broadcast', 'presence'] : ['broadcast'])
        if (!channel.policies.broadcastRead && !channel.policies.presenceRead)
          return send(
            conn,
            reply(message, 'error', { reason: `Unauthorized: You do not have permissions to read from this Channel topic: ${subTopic}` }),
          )
      }
      const problem = parsed.problem ?? (await checkBindings(db, caller, bindings))
      channel.changesOff = problem !== undefined
      leave(conn, topic)
      conn.channels.set(topic, channel)
      send(conn, reply(message, 'ok', { postgres_changes: bindings.map(bindingReply) }))
      if (channel.presence && readsPresence(channel))
        send(conn, {
          joinRef: message.joinRef,
          ref: null,
          topic,
          event: 'presence_state',
          payload: presence.state(topicKey(topic, channel.private)),
        })
      if (bindings.length) systemMessage(conn, channel, 'postgres_changes', problem ? 'error' : 'ok', problem ?? 'Subscribed to PostgreSQL')
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
      // As hosted: the token the channel holds already changes nothing (and is not checked again).
      if (typeof payload.access_token === 'string' && payload.access_token === channel.token) return send(conn, reply(message, 'ok', {}))
      const caller = await callerOf(payload.access_token, conn.apiCaller)
      if (caller instanceof Error) return systemError(conn, channel, `Invalid token: ${caller.message}`)
      channel.caller = caller
      channel.token = typeof payload.access_token === 'string' ? payload.access_token : undefined
      if (channel.private) {
        // As hosted: the policies are evaluated again for the new token; a channel that could read
        // and now cannot is shut down, and writes are checked again on the next send.
        const before = channel.policies
        const now = await readPolicies(db, contextOf(conn, channel), channel.presence ? ['broadcast', 'presence'] : ['broadcast'])
        channel.policies = now
        if ((before.broadcastRead && !now.broadcastRead) || (before.presenceRead && !now.presenceRead))
          return systemError(
            conn,
            channel,
            `You no longer have permission to read from this Channel topic: ${topic.replace(/^realtime:/, '')}`,
          )
      }
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
      const where = topicKey(topic, channel.private)
      let diff: PresenceDiff | undefined
      try {
        if (payload.event === 'track') {
          // As hosted: a track the policies do not allow is answered with a bare error.
          if (!(await mayWrite(conn, channel, 'presence'))) return send(conn, reply(message, 'error', {}))
          diff = presence.track(where, channel, conn.address, channel.presenceKey, (payload.payload ?? {}) as Record<string, unknown>)
        } else diff = presence.untrack(where, channel)
      } catch (error) {
        if (error instanceof PresenceRefused) return send(conn, reply(message, 'error', { reason: error.message }))
        throw error
      }
      send(conn, reply(message, 'ok', {}))
      return sendDiff(topic, channel.private, diff)
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
      for (const channel of [...conn.channels.values()]) {
        const exp = channel.caller.claims.exp
        if (typeof exp === 'number' && exp < now) {
          systemError(conn, channel, 'Token has expired')
          continue
        }
        if (channel.changesOff) continue
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
      errors: null as string[] | null,
    }
    const allBindings = targets.flatMap((t) => t.bindings)
    const push = (conn: Connection, channel: Channel, ids: number[], data: Record<string, unknown>) => {
      if (ids.length) send(conn, { joinRef: null, ref: null, topic: channel.topic, event: 'postgres_changes', payload: { ids, data } })
    }
    if (change.type === 'DELETE') {
      // As hosted Realtime: the row is gone, so a DELETE is matched on the old row's replica identity
      // and not checked against RLS; on a table with RLS only the primary key is sent.
      const passing = await passingBindings(db, change.schema, change.table, change.identity, allBindings)
      const { rows } = await db.query<{ rls: boolean }>(
        'select relrowsecurity as rls from pg_class where oid = to_regclass(quote_ident($1) || $3 || quote_ident($2))',
        [change.schema, change.table, '.'],
      )
      const oldRecord = rows[0]?.rls === false ? change.identity : change.pk
      const data = { ...base, old_record: oldRecord, errors: change.tooLarge ? ['Error 413: Payload Too Large'] : null }
      for (const { conn, channel, bindings } of targets)
        push(
          conn,
          channel,
          bindings.filter((b) => passing.has(b)).map((b) => b.id),
          data,
        )
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
    const records = await Promise.all(targets.map(({ channel }) => readAs(channel.caller)))
    // The row is the same for every caller who may read it: its filters are evaluated once.
    const record = records.find((r) => r !== undefined)
    if (!record) return
    const passing = await passingBindings(db, change.schema, change.table, record, allBindings)
    targets.forEach(({ conn, channel, bindings }, i) => {
      const seen = records[i]
      if (!seen) return
      const ids = bindings.filter((b) => passing.has(b)).map((b) => b.id)
      push(conn, channel, ids, { ...base, record: seen, ...(change.type === 'UPDATE' ? { old_record: change.identity } : {}) })
    })
  }

  /** A broadcast that came over REST: to every member of the topic that may read it. */
  const restBroadcast: RestBroadcast = {
    db,
    jwtSecret,
    deliver: (subTopic, isPrivate, message) => deliverBroadcast(`realtime:${subTopic}`, isPrivate, message),
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
            const conn: Connection = {
              ws,
              address: clientAddress(req),
              vsn,
              apiCaller,
              headers: requestHeaders(req),
              channels: new Map(),
              lastSeen: Date.now(),
            }
            connections.add(conn)
            // One message at a time per socket: a join is answered before what follows it.
            let inbox: Promise<void> = Promise.resolve()
            ws.on('message', (data, isBinary) => {
              conn.lastSeen = Date.now()
              if (isBinary) {
                const pushed = decodeBroadcastPush(Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer))
                const channel = pushed && conn.channels.get(pushed.topic)
                if (pushed && channel)
                  inbox = inbox.then(() => fanOut(conn, channel, pushed)).catch((error) => console.error('realtime:', error))
                return
              }
              const message = decode(data.toString(), vsn)
              if (!message) return
              // A heartbeat is the socket's, not a channel's: answered at once, never behind a slow join.
              if (message.topic === 'phoenix' && message.event === 'heartbeat') return send(conn, reply(message, 'ok', {}))
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
    handleRequest: (req, res) => handleBroadcastRequest(restBroadcast, req, res),
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
