// The Phoenix channel messages realtime-js (bundled with supabase-js 2.109) exchanges with
// Supabase Realtime, in both serialisations it offers: vsn 2.0.0 (its default: a JSON array
// [join_ref, ref, topic, event, payload]) and vsn 1.0.0 (a JSON object). Binary frames carry
// broadcasts (broadcast.ts).

export interface Message {
  joinRef: string | null
  ref: string | null
  topic: string
  event: string
  payload: Record<string, unknown>
}

export type Vsn = '1.0.0' | '2.0.0'

export const vsnOf = (value: string | null): Vsn | undefined =>
  value === null || value === '2.0.0' ? '2.0.0' : value === '1.0.0' ? '1.0.0' : undefined

const stringOrNull = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? null : String(v))
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** undefined: not a message this protocol knows. */
export function decode(text: string, vsn: Vsn): Message | undefined {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return undefined
  }
  if (vsn === '2.0.0') {
    if (!Array.isArray(raw) || raw.length !== 5) return undefined
    const [joinRef, ref, topic, event, payload] = raw as unknown[]
    if (typeof topic !== 'string' || typeof event !== 'string') return undefined
    return { joinRef: stringOrNull(joinRef), ref: stringOrNull(ref), topic, event, payload: isObject(payload) ? payload : {} }
  }
  if (!isObject(raw) || typeof raw.topic !== 'string' || typeof raw.event !== 'string') return undefined
  return {
    joinRef: stringOrNull(raw.join_ref),
    ref: stringOrNull(raw.ref),
    topic: raw.topic,
    event: raw.event,
    payload: isObject(raw.payload) ? raw.payload : {},
  }
}

export function encode(message: Message, vsn: Vsn): string {
  const { joinRef, ref, topic, event, payload } = message
  return JSON.stringify(vsn === '2.0.0' ? [joinRef, ref, topic, event, payload] : { join_ref: joinRef, ref, topic, event, payload })
}

/** The answer to a push: phx_reply with the push's refs. */
export const reply = (to: Message, status: 'ok' | 'error', response: Record<string, unknown>): Message => ({
  joinRef: to.joinRef,
  ref: to.ref,
  topic: to.topic,
  event: 'phx_reply',
  payload: { status, response },
})
