import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local stand-in for an OpenAI-compatible provider, for tests: GET /v1/models and
 * POST /v1/chat/completions, both requiring `Authorization: Bearer <key>`. The completion echoes
 * the prompt so a test can tell the answer came through it; every request is recorded.
 */
export interface AiStandIn {
  url: string
  requests: { method: string; path: string; authorization: string | undefined; body: unknown }[]
  close(): Promise<void>
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ''
    req.on('data', (chunk: Buffer) => (text += chunk.toString()))
    req.on('end', () => resolve(text))
  })

export async function startAiStandIn(key: string): Promise<AiStandIn> {
  const requests: AiStandIn['requests'] = []
  const server: Server = createServer(async (req, res) => {
    const text = await readBody(req)
    const body = text ? (JSON.parse(text) as { messages?: { content: string }[]; model?: string }) : undefined
    requests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, body })
    const send = (status: number, payload: unknown) =>
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(payload))
    if (req.headers.authorization !== `Bearer ${key}`) return send(401, { error: { message: 'Incorrect API key provided.' } })
    if (req.method === 'GET' && req.url === '/v1/models')
      return send(200, { object: 'list', data: [{ id: 'stand-in-small' }, { id: 'stand-in-large' }] })
    if (req.method === 'POST' && req.url === '/v1/chat/completions') {
      const prompt = body?.messages?.at(-1)?.content ?? ''
      return send(200, { choices: [{ message: { role: 'assistant', content: `Stand-in (${body?.model}) says: ${prompt.slice(0, 80)}` } }] })
    }
    send(404, { error: { message: 'not found' } })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
