/**
 * CUBE Radio joins a piece in segments (src/engine/station/segments.ts): each later segment is
 * rendered with a pre-roll and crosses the one before it in a 50 ms linear join. Measured on real
 * programme pieces rendered by the real renderer, joined as the live graph joins them: the drums
 * (sample-identical in every render) match a render of the whole piece exactly, so the segments sit
 * sample-accurately; the full mix has no click and no level step at a join. And the station's level
 * and limiter put each piece at the player's loudness, under -1 dBTP.
 */
import { describe, expect, it } from 'vitest'
import { integratedLoudness } from '../../dsp/loudness.ts'
import { truePeakDbtp } from '../../dsp/true-peak.ts'
import { compose, type Score } from '../../workers/composer/index.ts'
import { renderScore, type ScorePart } from '../../src/engine/score-renderer.ts'
import { PIECE_SECONDS, slotAt } from '../../src/engine/station/programme.ts'
import { joinGain, prerollOf, segmentPlan } from '../../src/engine/station/segments.ts'
import { makeLimiter, stationGainDb, STATION_LOUDNESS_LUFS } from '../../src/engine/station/station-output.ts'

const RATE = 16000
const AT = Date.UTC(2026, 10, 23, 20, 0, 0)

const scoreOf = (offset: number): Score => compose({ ...slotAt(AT, {}, offset).recipe, instruments: [], minDurationSeconds: PIECE_SECONDS })

const rms = (x: Float32Array, from: number, to: number) => {
  let sum = 0
  for (let i = from; i < to; i++) sum += x[i]! * x[i]!
  return Math.sqrt(sum / Math.max(1, to - from))
}
const db = (ratio: number) => 20 * Math.log10(ratio)

/** The piece from `start` as the station plays it: its segments, each placed at its time, joined. */
async function joinedFrom(score: Score, start: number, parts?: ScorePart[]): Promise<Float32Array> {
  const out = new Float32Array(Math.ceil(PIECE_SECONDS * RATE))
  for (const segment of segmentPlan(start)) {
    const buffer = await renderScore(score, {
      sampleRate: RATE,
      from: segment.from,
      to: segment.to,
      preroll: prerollOf(segment),
      normalise: false,
      parts,
    })
    const data = buffer.getChannelData(0)
    const offset = Math.round(segment.from * RATE)
    for (let i = 0; i < data.length && offset + i < out.length; i++)
      out[offset + i]! += data[i]! * joinGain(segment, segment.from + i / RATE)
  }
  return out
}

const whole = async (score: Score, parts?: ScorePart[]) =>
  (await renderScore(score, { sampleRate: RATE, to: PIECE_SECONDS, normalise: false, parts })).getChannelData(0)

describe('CUBE Radio segments', () => {
  const start = 20
  const joins = segmentPlan(start)
    .slice(1)
    .map((s) => s.from)

  it('segments sit sample-accurately: the drums, identical in every render, match the whole piece 60 dB down', async () => {
    const score = scoreOf(0)
    const [reference, joined] = [await whole(score, ['drums']), await joinedFrom(score, start, ['drums'])]
    const from = Math.round(start * RATE)
    const to = reference.length
    const difference = reference.map((v, i) => joined[i]! - v)
    expect(rms(reference, from, to)).toBeGreaterThan(0.01)
    expect(db(rms(difference, from, to) / rms(reference, from, to))).toBeLessThan(-60)
  }, 120_000)

  it('the full mix has no click and no level step at a join', async () => {
    const score = scoreOf(0)
    const [reference, joined] = [await whole(score), await joinedFrom(score, start)]
    expect(joins.length).toBe(3)
    for (const at of joins) {
      // Level: the second around the join within 1 dB of the whole render's, and no 100 ms window
      // 3 dB off it. (The synths' oscillators are not phase-aligned between renders, and their detuned
      // pairs beat differently, so short windows of any two renders differ by a dB or two anywhere.)
      const second = db(
        rms(joined, Math.round((at - 0.5) * RATE), Math.round((at + 0.5) * RATE)) /
          rms(reference, Math.round((at - 0.5) * RATE), Math.round((at + 0.5) * RATE)),
      )
      expect(Math.abs(second), `level ${second.toFixed(2)} dB around the join at ${at} s`).toBeLessThan(1)
      const window = Math.round(0.1 * RATE)
      for (let from = Math.round((at - 0.5) * RATE); from < Math.round((at + 0.5) * RATE); from += window / 2) {
        const step = db(rms(joined, from, from + window) / rms(reference, from, from + window))
        expect(Math.abs(step), `level ${step.toFixed(2)} dB at ${(from / RATE).toFixed(2)} s (join at ${at} s)`).toBeLessThan(3)
      }
      // Click: no sample-to-sample jump near the join larger than the music's own around it.
      const jump = (x: Float32Array, from: number, to: number) => {
        let max = 0
        for (let i = from + 1; i < to; i++) max = Math.max(max, Math.abs(x[i]! - x[i - 1]!))
        return max
      }
      const near = jump(joined, Math.round((at - 0.03) * RATE), Math.round((at + 0.08) * RATE))
      const around = jump(reference, Math.round((at - 0.5) * RATE), Math.round((at + 0.5) * RATE))
      expect(near, `join at ${at} s`).toBeLessThanOrEqual(around * 1.1)
    }
  }, 120_000)

  it("each piece is brought to the player's loudness, under -1 dBTP through the limiter", async () => {
    const measured: string[] = []
    for (const offset of [0, 1, 2, 3]) {
      const piece = await renderScore(scoreOf(offset), { sampleRate: RATE, to: PIECE_SECONDS, normalise: false })
      const before = [piece.getChannelData(0), piece.getChannelData(1)]
      // The station's output stage, as station-player.ts builds it on the live context.
      const ctx = new OfflineAudioContext(2, piece.length, RATE)
      const source = new AudioBufferSourceNode(ctx, { buffer: piece })
      const level = new GainNode(ctx, { gain: 10 ** (stationGainDb(before, RATE) / 20) })
      source
        .connect(level)
        .connect(makeLimiter(new DynamicsCompressorNode(ctx)))
        .connect(ctx.destination)
      source.start()
      const out = await ctx.startRendering()
      const channels = [out.getChannelData(0), out.getChannelData(1)]
      const loudness = integratedLoudness(channels, RATE)
      const peak = truePeakDbtp(channels)
      measured.push(`${integratedLoudness(before, RATE).toFixed(1)} → ${loudness.toFixed(2)} LUFS, ${peak.toFixed(2)} dBTP`)
      expect(Math.abs(loudness - STATION_LOUDNESS_LUFS), measured.join('; ')).toBeLessThan(1)
      expect(peak, measured.join('; ')).toBeLessThanOrEqual(-1)
    }
    console.log(`station level: ${measured.join('; ')}`)
  }, 180_000)
})
