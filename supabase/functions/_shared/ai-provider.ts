// Calling a configured AI provider from the server (the key never leaves it). Fetch API only, so
// it runs on Deno and Node. Two wire styles are spoken: OpenAI-compatible (OpenAI, any Custom
// Endpoint, local model servers) and Anthropic's Messages API; Hugging Face is checked through its
// whoami endpoint. Models with no public API of their own need a Custom Endpoint base URL.
// Every call goes through a GuardedFetch (outbound-guard.ts): https to public addresses only.

import { OutboundRefused, type GuardedFetch } from './outbound-guard.ts'

export interface ProviderConfig {
  provider: string
  model: string
  base_url: string | null
  api_key: string | null
}

/** Where admin settings say the provider calls go, as server-side code may read them. */
export interface AiConfigSource {
  /** The category's provider with its key, or null when the category does not exist. */
  provider(category: string): Promise<ProviderConfig | null>
  /** The site's API timeout and retries (Site Settings). */
  limits(): Promise<{ timeoutMs: number; retries: number }>
}

export const ON_DEVICE = 'On-device (built in)'

type Style = 'openai' | 'anthropic' | 'huggingface'
interface Endpoint {
  style: Style
  base: string
}

const OPENAI = 'https://api.openai.com/v1'
const ANTHROPIC = 'https://api.anthropic.com/v1'
const HUGGING_FACE = 'https://huggingface.co'

/** Which API a configuration talks to; a string is the reason it cannot be called. */
export function endpointFor(config: ProviderConfig): Endpoint | string {
  if (config.model === ON_DEVICE || config.provider === ON_DEVICE)
    return 'This category uses the built-in on-device generator: there is nothing to connect to.'
  const base = config.base_url?.replace(/\/+$/, '')
  if (config.model === 'Custom Endpoint' || config.provider === 'Custom Endpoint') {
    return base ? { style: 'openai', base } : 'A Custom Endpoint needs its base URL.'
  }
  if (base) return { style: config.model === 'Claude 3' ? 'anthropic' : 'openai', base }
  if (['GPT-4', 'GPT-3.5 Turbo', 'OpenAI API', 'DALL-E 3'].includes(config.model)) return { style: 'openai', base: OPENAI }
  if (config.model === 'Claude 3') return { style: 'anthropic', base: ANTHROPIC }
  if (config.model === 'Hugging Face') return { style: 'huggingface', base: HUGGING_FACE }
  return `${config.model} has no public API this server can call: choose Custom Endpoint and give the base URL of your deployment.`
}

const MODEL_IDS: Record<string, string> = { 'GPT-4': 'gpt-4', 'GPT-3.5 Turbo': 'gpt-3.5-turbo', 'Claude 3': 'claude-3-haiku-20240307' }

function headersFor(style: Style, key: string | null): Record<string, string> {
  if (style === 'anthropic') return { 'x-api-key': key ?? '', 'anthropic-version': '2023-06-01' }
  return key ? { Authorization: `Bearer ${key}` } : {}
}

async function timed(fetchImpl: GuardedFetch, url: string, init: RequestInit, timeoutMs: number): Promise<Response> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), timeoutMs)
  try {
    return await fetchImpl(url, { ...init, signal: controller.signal })
  } catch (error) {
    if (error instanceof OutboundRefused) throw error
    if (controller.signal.aborted) throw new Error(`The provider did not answer within ${timeoutMs} ms.`)
    throw new Error(`The provider could not be reached: ${(error as Error).message}`)
  } finally {
    clearTimeout(timer)
  }
}

async function errorText(res: Response): Promise<string> {
  const body = await res.text().catch(() => '')
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string; message?: string }
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message)
    if (message) return message.slice(0, 300)
  } catch {
    // not JSON: the status line says enough
  }
  return res.statusText || `HTTP ${res.status}`
}

export interface TestResult {
  ok: boolean
  message: string
}

/** Asks the provider who we are / which models exist: proves the address and the key. */
export async function testConnection(config: ProviderConfig, fetchImpl: GuardedFetch, timeoutMs: number): Promise<TestResult> {
  const endpoint = endpointFor(config)
  if (typeof endpoint === 'string') return { ok: false, message: endpoint }
  if (!config.api_key && endpoint.base !== config.base_url?.replace(/\/+$/, ''))
    return { ok: false, message: 'No API key is saved for this category.' }
  const url = endpoint.style === 'huggingface' ? `${endpoint.base}/api/whoami-v2` : `${endpoint.base}/models`
  try {
    const res = await timed(fetchImpl, url, { headers: headersFor(endpoint.style, config.api_key) }, timeoutMs)
    if (!res.ok) return { ok: false, message: `The provider answered ${res.status}: ${await errorText(res)}` }
    const body = (await res.json().catch(() => null)) as { data?: { id?: string }[]; name?: string } | null
    const models = body?.data?.map((m) => m.id).filter(Boolean) ?? []
    return {
      ok: true,
      message: models.length
        ? `Connected: ${models.length} model${models.length === 1 ? '' : 's'} available (${models.slice(0, 3).join(', ')}).`
        : `Connected${body?.name ? ` as ${body.name}` : ''}.`,
    }
  } catch (error) {
    return { ok: false, message: (error as Error).message }
  }
}

/** One completion from the configured text provider; retries on 5xx, 429 and network failures. */
export async function generateText(
  config: ProviderConfig,
  prompt: string,
  maxTokens: number,
  fetchImpl: GuardedFetch,
  limits: { timeoutMs: number; retries: number },
): Promise<string> {
  const endpoint = endpointFor(config)
  if (typeof endpoint === 'string') throw new Error(endpoint)
  const model = MODEL_IDS[config.model] ?? config.model
  const request =
    endpoint.style === 'anthropic'
      ? { url: `${endpoint.base}/messages`, body: { model, max_tokens: maxTokens, messages: [{ role: 'user', content: prompt }] } }
      : { url: `${endpoint.base}/chat/completions`, body: { model, max_tokens: maxTokens, messages: [{ role: 'user', content: prompt }] } }
  let last = 'The provider failed.'
  for (let attempt = 0; attempt <= limits.retries; attempt++) {
    try {
      const res = await timed(
        fetchImpl,
        request.url,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...headersFor(endpoint.style, config.api_key) },
          body: JSON.stringify(request.body),
        },
        limits.timeoutMs,
      )
      if (res.ok) {
        const body = (await res.json()) as { choices?: { message?: { content?: string } }[]; content?: { text?: string }[] }
        const text = endpoint.style === 'anthropic' ? body.content?.map((c) => c.text ?? '').join('') : body.choices?.[0]?.message?.content
        if (typeof text === 'string' && text.trim()) return text.trim()
        throw new Error('The provider answered without text.')
      }
      last = `The provider answered ${res.status}: ${await errorText(res)}`
      if (res.status < 500 && res.status !== 429) break
    } catch (error) {
      last = (error as Error).message
      if (last === 'The provider answered without text.' || error instanceof OutboundRefused) break
    }
  }
  throw new Error(last)
}
