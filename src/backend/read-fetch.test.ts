import { describe, expect, it } from 'vitest'
import { createReadFetch } from './read-fetch.ts'

/** A server stand-in that counts calls and answers when told to. */
function fakeServer() {
  const calls: { method: string; url: string; bodyRead: () => boolean }[] = []
  const release: (() => void)[] = []
  const inner = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const method = init?.method ?? 'GET'
    await new Promise<void>((r) => release.push(r))
    let read = false
    const res = new Response(method === 'HEAD' ? null : JSON.stringify([{ id: 1 }]), { status: 200, headers: { 'content-range': '0-0/1' } })
    const original = res.arrayBuffer.bind(res)
    res.arrayBuffer = async () => ((read = true), original())
    calls.push({ method, url: String(input), bodyRead: () => read })
    return res
  }) as typeof fetch
  return { inner, calls, answerAll: () => release.splice(0).forEach((r) => r()) }
}

const URL_A = 'http://x/rest/v1/songs?select=id'
const tick = () => new Promise((r) => setTimeout(r, 0))

describe('the REST read fetch', () => {
  it('identical reads in flight share one request; each caller gets its own readable response', async () => {
    const server = fakeServer()
    const f = createReadFetch(server.inner)
    const headers = { apikey: 'k', Authorization: 'Bearer t' }
    const a = f(URL_A, { method: 'GET', headers })
    const b = f(URL_A, { method: 'GET', headers: { Authorization: 'Bearer t', apikey: 'k' } })
    await tick()
    server.answerAll()
    const [ra, rb] = await Promise.all([a, b])
    expect(server.calls).toHaveLength(1)
    expect(await ra.json()).toEqual([{ id: 1 }])
    expect(await rb.json()).toEqual([{ id: 1 }])
    expect(rb.headers.get('content-range')).toBe('0-0/1')
    // Once settled, the next identical read goes to the server again (no caching beyond the flight).
    const c = f(URL_A, { method: 'GET', headers })
    await tick()
    server.answerAll()
    await c
    expect(server.calls).toHaveLength(2)
  })

  it('different users (Authorization), URLs or methods are never shared', async () => {
    const server = fakeServer()
    const f = createReadFetch(server.inner)
    const all = [
      f(URL_A, { headers: { Authorization: 'Bearer one' } }),
      f(URL_A, { headers: { Authorization: 'Bearer two' } }),
      f(`${URL_A}&limit=1`, { headers: { Authorization: 'Bearer one' } }),
      f(URL_A, { method: 'HEAD', headers: { Authorization: 'Bearer one' } }),
    ]
    await tick()
    server.answerAll()
    await Promise.all(all)
    expect(server.calls).toHaveLength(4)
  })

  it('reads a HEAD response to its end and answers with its status and headers', async () => {
    const server = fakeServer()
    const f = createReadFetch(server.inner)
    const p = f(URL_A, { method: 'HEAD' })
    await tick()
    server.answerAll()
    const res = await p
    expect(server.calls[0]!.bodyRead()).toBe(true)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-range')).toBe('0-0/1')
  })

  it('writes, requests with their own AbortSignal and non-REST URLs pass straight through', async () => {
    const server = fakeServer()
    const f = createReadFetch(server.inner)
    const all = [
      f(URL_A, { method: 'POST', body: '{}' }),
      f(URL_A, { method: 'POST', body: '{}' }),
      f(URL_A, { signal: new AbortController().signal }),
      f(URL_A, { signal: new AbortController().signal }),
      f('http://x/storage/v1/object/b/a.wav'),
      f('http://x/storage/v1/object/b/a.wav'),
    ]
    await tick()
    server.answerAll()
    await Promise.all(all)
    expect(server.calls).toHaveLength(6)
  })

  it('a failed request fails every caller sharing it, and the next read tries again', async () => {
    let n = 0
    const f = createReadFetch((async () => {
      n++
      if (n === 1) throw new TypeError('Failed to fetch')
      return new Response('[]', { status: 200 })
    }) as typeof fetch)
    const results = await Promise.allSettled([f(URL_A), f(URL_A)])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect((await f(URL_A)).status).toBe(200)
    expect(n).toBe(2)
  })
})
