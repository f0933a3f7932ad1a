/**
 * The deck's media-element stand-in (`getPlayerDeck().element`) as wavesurfer.js uses it on Now
 * Playing: the waveform's time follows the deck while it plays a decoded or streamed item, and a
 * seek through wavesurfer (a click on the waveform) moves the deck.
 */
import { afterEach, describe, expect, it } from 'vitest'
import WaveSurfer from 'wavesurfer.js'
import { getAudioContext } from '../../src/engine/audio-context.ts'
import { getPlayerDeck } from '../../src/engine/player-deck.ts'
import { encodeWav } from '../../src/engine/workers.ts'

afterEach(() => getPlayerDeck().stop())

async function toneUrl(seconds: number, sampleRate: number): Promise<string> {
  const samples = new Float32Array(Math.round(seconds * sampleRate)).map((_, i) => 0.1 * Math.sin((2 * Math.PI * i) / 100))
  return URL.createObjectURL(await encodeWav([samples], sampleRate, 'float32'))
}

describe('the deck as wavesurfer.js media', () => {
  it('wavesurfer follows the deck (streamed, then decoded ahead) and seeks it', async () => {
    const ctx = getAudioContext()
    await ctx.resume()
    const deck = getPlayerDeck()
    const host = document.createElement('div')
    host.style.width = '400px'
    document.body.append(host)
    const ws = WaveSurfer.create({ container: host, media: deck.element, peaks: [[0, 0.1, 0]], duration: 3 })
    try {
      await deck.load(await toneUrl(3, ctx.sampleRate), 'Streamed')
      await deck.play()
      await expect.poll(() => ws.getCurrentTime(), { timeout: 5000 }).toBeGreaterThan(0.3)
      expect(ws.isPlaying()).toBe(true)
      expect(deck.element.duration).toBeCloseTo(3, 1)
      // A click on the waveform sets the media time: the deck jumps there.
      ws.setTime(2)
      await expect.poll(() => deck.element.currentTime).toBeGreaterThanOrEqual(2)
      expect(deck.element.currentTime).toBeLessThan(2.6)
      deck.pause()
      await expect.poll(() => ws.isPlaying()).toBe(false)

      // A decoded item (the next one, preloaded) drives it the same way from the context clock.
      const next = await toneUrl(2, ctx.sampleRate)
      deck.preload(next, 'Decoded')
      await new Promise((r) => setTimeout(r, 300))
      await deck.load(next, 'Decoded')
      await deck.play()
      ws.setTime(1.5)
      await expect.poll(() => ws.getCurrentTime(), { timeout: 5000 }).toBeGreaterThanOrEqual(1.5)
      await expect.poll(() => deck.element.ended, { timeout: 5000 }).toBe(true)
      expect(ws.isPlaying()).toBe(false)
    } finally {
      ws.destroy()
      host.remove()
    }
  })
})
