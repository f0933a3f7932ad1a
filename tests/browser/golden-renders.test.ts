/**
 * Golden renders of the audio engine: each case (golden-cases.ts) is rendered offline and compared
 * sample for sample with its committed reference in tests/browser/golden/ (golden-compare.ts states
 * the tolerance), so a change in sound is a failing test that names the case and the figure.
 * `npm run golden:update` renders them again and writes the references (then review and commit).
 */
import { describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { GOLDEN_CASES, stripCase } from './golden-cases.ts'
import { GOLDEN_TOLERANCE, compareWithGolden, decodeGoldenWav, encodeGoldenWav, fromBase64, toBase64 } from './golden-compare.ts'

const UPDATE = import.meta.env.VITE_GOLDEN_UPDATE === '1'
const pathOf = (name: string) => `tests/browser/golden/${name}.wav`

async function golden(name: string) {
  return decodeGoldenWav(fromBase64(await commands.readFile(pathOf(name), 'base64')))
}

const rmsDb = (x: Float32Array) => 10 * Math.log10(x.reduce((s, v) => s + v * v, 0) / x.length)

describe('golden renders', () => {
  for (const c of GOLDEN_CASES) {
    it(`${c.name} sounds as its golden render`, async () => {
      const samples = await c.render()
      // A reference of silence would prove nothing.
      expect(rmsDb(samples), `golden "${c.name}" is sound`).toBeGreaterThan(-50)
      if (UPDATE) return commands.writeFile(pathOf(c.name), toBase64(encodeGoldenWav(samples, c.sampleRate)), 'base64')
      const verdict = compareWithGolden(c.name, samples, await golden(c.name), c.sampleRate)
      console.info(verdict.message)
      expect(verdict.ok, verdict.message).toBe(true)
    })
  }

  it.skipIf(UPDATE)('fails, naming the case and the figure, when one parameter changes a little', async () => {
    // The lowpass of strip-filters one step (1 of 100) more closed.
    const changed = await stripCase('strip-filters', { lowpass: 59, highpass: 40 }).render()
    const verdict = compareWithGolden('strip-filters', changed, await golden('strip-filters'), 48000)
    console.info(`control, lowpass 60 → 59: ${verdict.message}`)
    expect(verdict.ok).toBe(false)
    expect(verdict.rmsDiffDb).toBeGreaterThan(GOLDEN_TOLERANCE.rmsDb)
    expect(verdict.message).toMatch(
      /^golden "strip-filters": max \|diff\| -?\d+\.\d dBFS at [\d.]+ s \(allowed -80\), RMS of the difference/,
    )
  })
})
