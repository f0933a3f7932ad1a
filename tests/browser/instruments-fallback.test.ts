/**
 * When the GM bank cannot be loaded, the generator still makes the piece with the synthetic voices
 * and says why, instead of failing; a cancel stays a cancel. (Its own file: the bank is cached per page.)
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { compose } from '../../workers/composer/index.ts'
import { INSTRUMENTS_UNAVAILABLE_MESSAGE, renderGeneratedScore } from '../../src/engine/instruments/generated-render.ts'
import { GM_BANK_URL } from '../../src/config/soundfont.ts'

afterEach(() => vi.restoreAllMocks())

describe('generator without the instrument bank', () => {
  it('falls back to the synthetic voices with the reason when the bank answers 404', async () => {
    const realFetch = globalThis.fetch
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) =>
      String(input).endsWith(GM_BANK_URL) ? Promise.resolve(new Response('missing', { status: 404 })) : realFetch(input, init),
    )
    const score = compose({ description: 'sad jazz piano', minDurationSeconds: 8 })
    const rendered = await renderGeneratedScore(score)
    expect(rendered.engine).toBe('synthetic')
    expect(rendered.fallbackReason).toBe('The instrument sounds could not be loaded (HTTP 404).')
    expect(INSTRUMENTS_UNAVAILABLE_MESSAGE).toMatch(/built-in synthesizer voices/)
    const x = rendered.buffer.getChannelData(0)
    let sq = 0
    for (let i = 0; i < x.length; i++) sq += x[i]! ** 2
    expect(Math.sqrt(sq / x.length)).toBeGreaterThan(0.01)
  }, 120_000)

  it('does not turn a cancel into a fallback', async () => {
    const controller = new AbortController()
    controller.abort()
    await expect(renderGeneratedScore(compose({ description: 'x', minDurationSeconds: 8 }), { signal: controller.signal })).rejects.toThrow(
      /cancelled/i,
    )
  })
})
