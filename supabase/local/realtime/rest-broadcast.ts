import type { IncomingMessage, ServerResponse } from 'node:http'
import { bearerToken, callerFromToken, requestHeaders, type Caller } from '../core/caller.ts'
import type { Database } from '../core/db.ts'
import { readBody } from '../core/http-body.ts'
import { writePolicies } from './authorization.ts'
import type { UserBroadcast } from './broadcast.ts'

// Broadcast over REST, as hosted Realtime serves it (lib/realtime_web/controllers/broadcast_*.ex,
// lib/realtime/tenants/{batch,single}_broadcast.ex of github.com/supabase/realtime):
// - POST /realtime/v1/api/broadcast/:topic/events/:event[?private=true], a JSON or binary
//   (application/octet-stream) body: realtime-js's channel.httpSend(). 202 when sent; a private
//   topic the caller's INSERT policies do not allow is 403 {"message":"Unauthorized"}.
// - POST /realtime/v1/api/broadcast, {messages: [{topic, event, payload, private?}]}: realtime-js's
//   send() before the channel joined. 202; private messages the caller may not send are dropped.
// The caller is the bearer token, else the apikey; without a valid one, 401 {"message":"Unauthorized"}.
// A broadcast goes to every member of the topic that may read it (the sender is not a member).

export const BROADCAST_PATH = '/realtime/v1/api/broadcast'
/** Hosted's default max_payload_size_in_kb (256 KB). */
const MAX_PAYLOAD_BYTES = 256 * 1000

export interface RestBroadcast {
  db: Database
  jwtSecret: string
  deliver(subTopic: string, isPrivate: boolean, message: UserBroadcast): void
}

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'authorization, apikey, content-type, x-client-info',
  'Access-Control-Max-Age': '86400',
}

function answer(res: ServerResponse, status: number, body?: unknown) {
  res.writeHead(status, { ...CORS, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) })
  res.end(body === undefined ? '' : JSON.stringify(body))
}

async function callerOf(req: IncomingMessage, jwtSecret: string): Promise<Caller | undefined> {
  const apikey = typeof req.headers.apikey === 'string' ? req.headers.apikey : undefined
  const token = bearerToken(req) || apikey
  if (!token) return undefined
  try {
    return await callerFromToken(token, jwtSecret)
  } catch {
    return undefined
  }
}

const mayWrite = async (rest: RestBroadcast, req: IncomingMessage, caller: Caller, topic: string) =>
  (await writePolicies(rest.db, { caller, topic, headers: requestHeaders(req) }, ['broadcast'])).broadcastWrite === true

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Answers the request when it is for the broadcast API; false leaves it to others. */
export async function handleBroadcastRequest(rest: RestBroadcast, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://local')
  const path = url.pathname.replace(/\/+$/, '')
  const single = path.startsWith(`${BROADCAST_PATH}/`) ? /^\/([^/]+)\/events\/([^/]+)$/.exec(path.slice(BROADCAST_PATH.length)) : null
  if (path !== BROADCAST_PATH && !single) return false
  if (req.method === 'OPTIONS') {
    answer(res, 204)
    return true
  }
  if (req.method !== 'POST') {
    answer(res, 404, { message: 'Not found' })
    return true
  }
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
  const binary = contentType === 'application/octet-stream'
  if (single && contentType !== '' && contentType !== 'application/json' && !binary) {
    answer(res, 415, { error: 'Unsupported Media Type. Use application/json or application/octet-stream' })
    return true
  }
  const caller = await callerOf(req, rest.jwtSecret)
  if (!caller) {
    answer(res, 401, { message: 'Unauthorized' })
    return true
  }
  let body: Buffer
  try {
    body = await readBody(req)
  } catch {
    answer(res, 413, { message: 'Payload too large' })
    return true
  }
  let json: unknown
  if (!binary) {
    try {
      json = body.length ? JSON.parse(body.toString('utf8')) : undefined
    } catch {
      answer(res, 400, { message: 'Malformed JSON body' })
      return true
    }
  }

  if (single) {
    let topic: string
    let event: string
    try {
      topic = decodeURIComponent(single[1]!)
      event = decodeURIComponent(single[2]!)
    } catch {
      answer(res, 400, { message: 'Malformed percent-encoding in the path' })
      return true
    }
    const isPrivate = url.searchParams.get('private') === 'true'
    const size = binary ? body.length : Buffer.byteLength(JSON.stringify(json ?? null))
    if ((!binary && json === undefined) || size > MAX_PAYLOAD_BYTES) {
      answer(res, 422, { errors: { payload: [json === undefined ? "can't be blank" : 'Payload size exceeds tenant limit'] } })
      return true
    }
    if (isPrivate && !(await mayWrite(rest, req, caller, topic))) {
      answer(res, 403, { message: 'Unauthorized' })
      return true
    }
    rest.deliver(topic, isPrivate, { joinRef: null, ref: null, topic, event, meta: undefined, payload: binary ? body : json, binary })
    answer(res, 202)
    return true
  }

  // The batch: every message needs a topic, an event and an object payload (hosted's changeset).
  const messages = isObject(json) && Array.isArray(json.messages) ? (json.messages as unknown[]) : undefined
  if (!messages || !messages.length) {
    answer(res, 422, { errors: { messages: ["can't be blank"] } })
    return true
  }
  const problems = messages.map((m) => {
    const errors: Record<string, string[]> = {}
    const message = isObject(m) ? m : {}
    for (const field of ['topic', 'event'] as const)
      if (typeof message[field] !== 'string' || message[field] === '') errors[field] = ["can't be blank"]
    if (!isObject(message.payload)) errors.payload = message.payload === undefined ? ["can't be blank"] : ['is invalid']
    else if (Buffer.byteLength(JSON.stringify(message.payload)) > MAX_PAYLOAD_BYTES) errors.payload = ['Payload size exceeds tenant limit']
    if (message.private !== undefined && typeof message.private !== 'boolean') errors.private = ['is invalid']
    return errors
  })
  if (problems.some((p) => Object.keys(p).length)) {
    answer(res, 422, { errors: { messages: problems } })
    return true
  }
  const allowed = new Map<string, boolean>()
  for (const m of messages as { topic: string; event: string; payload: Record<string, unknown>; private?: boolean; id?: unknown }[]) {
    const isPrivate = m.private === true
    if (isPrivate) {
      if (!allowed.has(m.topic)) allowed.set(m.topic, await mayWrite(rest, req, caller, m.topic))
      if (!allowed.get(m.topic)) continue
    }
    const meta = typeof m.id === 'string' ? { id: m.id } : undefined
    rest.deliver(m.topic, isPrivate, { joinRef: null, ref: null, topic: m.topic, event: m.event, meta, payload: m.payload, binary: false })
  }
  answer(res, 202)
  return true
}
