/**
 * CUBE Radio's continuity measured on rendered output: three consecutive programme pieces, composed
 * by the real composer and rendered by the real renderer (OfflineAudioContext, 8 kHz to keep it quick),
 * mixed with the station's equal-power crossfade (the gain curve the live graph applies): no silence
 * over 50 ms (RMS over 10 ms windows under -60 dBFS) anywhere across the two piece boundaries.
 */
import { describe, expect, it } from 'vitest'
import { compose } from '../../workers/composer/index.ts'
import { renderScore } from '../../src/engine/score-renderer.ts'
import { PIECE_SECONDS, SLOT_SECONDS, longestSilenceMs, mixProgramme, slotAt } from '../../src/engine/station/programme.ts'

const RATE = 8000

async function renderedPiece(offset: number): Promise<Float32Array> {
  const { recipe } = slotAt(Date.UTC(2026, 10, 23, 20, 0, 0), {}, offset)
  const score = compose({ ...recipe, instruments: [], minDurationSeconds: PIECE_SECONDS })
  const buffer = await renderScore(score, { sampleRate: RATE, to: PIECE_SECONDS })
  const left = buffer.getChannelData(0)
  const right = buffer.numberOfChannels > 1 ? buffer.getChannelData(1) : left
  const out = new Float32Array(Math.round(PIECE_SECONDS * RATE))
  for (let i = 0; i < Math.min(out.length, left.length); i++) out[i] = (left[i]! + right[i]!) / 2
  return out
}

describe('CUBE Radio crossfade on rendered pieces', () => {
  it('plays continuously across piece boundaries (no silence gap over 50 ms)', async () => {
    const pieces = [await renderedPiece(0), await renderedPiece(1), await renderedPiece(2)]
    const out = mixProgramme(pieces, RATE)
    // Around both boundaries: from 8 s before the first to 10 s after the second.
    const gap = longestSilenceMs(out, RATE, SLOT_SECONDS - 8, 2 * SLOT_SECONDS + 10)
    expect(gap).toBeLessThanOrEqual(50)
    // The output is really sound at both boundaries (not a trivially quiet mix).
    for (const at of [SLOT_SECONDS, 2 * SLOT_SECONDS]) {
      const from = Math.round((at + 1) * RATE)
      let sum = 0
      for (let i = from; i < from + RATE; i++) sum += out[i]! * out[i]!
      expect(Math.sqrt(sum / RATE)).toBeGreaterThan(0.005)
    }
  }, 120_000)
})
