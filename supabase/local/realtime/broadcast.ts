// Broadcast messages in realtime-js's binary serialisation (vsn 2.0.0; lib/serializer.js of the
// realtime-js bundled with supabase-js 2.109): a client pushes `userBroadcastPush` frames (kind 3)
// and hosted Realtime fans them out as `userBroadcast` frames (kind 4).

const USER_BROADCAST_PUSH = 3
const USER_BROADCAST = 4
const BINARY = 0
const JSON_ENCODING = 1

export interface UserBroadcast {
  joinRef: string | null
  ref: string | null
  topic: string
  event: string
  /** JSON metadata the client allowed through (usually none). */
  meta: Record<string, unknown> | undefined
  /** The user payload: JSON, or bytes the client sent as an ArrayBuffer. */
  payload: unknown
  binary: boolean
}

/** A kind-3 frame, or undefined when it is not one. */
export function decodeBroadcastPush(frame: Buffer): UserBroadcast | undefined {
  if (frame.length < 7 || frame[0] !== USER_BROADCAST_PUSH) return undefined
  const [joinRefLength, refLength, topicLength, eventLength, metaLength, encoding] = [...frame.subarray(1, 7)] as number[]
  let offset = 7
  const take = (length: number) => {
    const text = frame.subarray(offset, offset + length).toString('latin1')
    offset += length
    return text
  }
  const joinRef = take(joinRefLength!)
  const ref = take(refLength!)
  const topic = take(topicLength!)
  const event = take(eventLength!)
  const metaText = take(metaLength!)
  if (offset > frame.length) return undefined
  const rest = frame.subarray(offset)
  try {
    return {
      joinRef: joinRef || null,
      ref: ref || null,
      topic,
      event,
      meta: metaText ? (JSON.parse(metaText) as Record<string, unknown>) : undefined,
      payload: encoding === JSON_ENCODING ? JSON.parse(rest.toString('utf8')) : Buffer.from(rest),
      binary: encoding !== JSON_ENCODING,
    }
  } catch {
    return undefined
  }
}

/** A kind-4 frame for a subscriber: topic, event, metadata and payload (JSON unless the sender sent bytes). */
export function encodeBroadcast(message: UserBroadcast): Buffer {
  const topic = Buffer.from(message.topic, 'utf8')
  const event = Buffer.from(message.event, 'utf8')
  const meta = Buffer.from(message.meta ? JSON.stringify(message.meta) : '', 'utf8')
  const payload = message.binary ? (message.payload as Buffer) : Buffer.from(JSON.stringify(message.payload ?? {}), 'utf8')
  const header = Buffer.from([USER_BROADCAST, topic.length, event.length, meta.length, message.binary ? BINARY : JSON_ENCODING])
  return Buffer.concat([header, topic, event, meta, payload])
}
