import { readFileSync } from 'node:fs'
import { expect, test } from './support/test.ts'
import { dbfs, dominantFrequency, parseWav, rms } from './fixtures/audio.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'

// Instrument tracks in the studio: the piano roll's journey through the real engine. Draw
// three notes, play them, undo the last, export the mix: the WAV has the two notes left, each at
// its beat and its pitch, and nothing where the undone one was. The editing gestures themselves
// are proven in the component tier (PianoRoll.browser.test.tsx).

const ROW_PX = 14
const BEAT_PX = 32
const HIGHEST_KEY = 108
const BPM = 120
const hz = (key: number) => 440 * 2 ** ((key - 69) / 12)

test('piano roll: draw, play, undo, export → the notes are heard at their beats and pitches; the notes come back with the project', async ({
  page,
}) => {
  await page.goto('/app/studio')
  await page.getByRole('button', { name: 'Add Instrument Track' }).click()
  const grid = page.getByTestId('piano-roll-grid')
  await expect(grid).toBeVisible()
  await expect(page.getByRole('listitem', { name: 'Acoustic Grand Piano', exact: true })).toBeVisible()

  // Snap is a beat: a click anywhere in a cell puts a one-beat note at its start.
  const drawAt = (beat: number, key: number) =>
    grid.click({ position: { x: (beat + 0.4) * BEAT_PX, y: (HIGHEST_KEY - key + 0.5) * ROW_PX } })
  await drawAt(0, 60) // C4 on beat 1 of bar 1
  await drawAt(2, 64) // E4 on beat 3
  await drawAt(4, 67) // G4 on beat 1 of bar 2
  const notes = page.getByTestId('piano-roll-note')
  await expect(notes).toHaveCount(3)
  await expect(notes.nth(0)).toHaveAttribute('aria-label', 'C4 at bar 1 beat 1, 1 beat, velocity 100')
  await expect(notes.nth(2)).toHaveAttribute('aria-label', 'G4 at bar 2 beat 1, 1 beat, velocity 100')
  await expectNoSeriousA11yViolations(page)

  // Play: the instrument track sounds through its own strip (its meter moves), then pause.
  const meter = page.getByRole('listitem', { name: 'Acoustic Grand Piano', exact: true }).getByRole('meter')
  await page.getByRole('button', { name: 'Play mix' }).click()
  await expect.poll(async () => Number(await meter.getAttribute('data-peak')), { timeout: 15_000 }).toBeGreaterThan(0.01)
  await page.getByRole('button', { name: 'Pause mix' }).click()

  await page.getByRole('button', { name: 'Undo Draw note' }).click()
  await expect(notes).toHaveCount(2)

  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export WAV' }).click()
  const wav = parseWav(readFileSync(await (await download).path()))
  const left = wav.channels[0]!
  const sr = wav.sampleRate
  const at = (seconds: number) => Math.round(seconds * sr)
  const beat = 60 / BPM
  const level = (from: number, to: number) => dbfs(rms(left, at(from), at(to)))
  // The onset: the first millisecond 10 dB above the 20 ms before the search window.
  const onset = (t: number) => {
    const floor = level(t - 0.05, t - 0.03)
    for (let ms = -30; ms < 50; ms++) if (level(t + ms / 1000, t + (ms + 1) / 1000) > floor + 10) return t + ms / 1000
    return null
  }
  // C4 from the very start (the render begins with it), E4 on beat 3: each within 10 ms of its beat.
  expect(level(0, 0.001)).toBeLessThan(-90)
  expect(level(0.02, 0.2)).toBeGreaterThan(-35)
  const e4 = onset(2 * beat)
  expect(e4).not.toBeNull()
  expect(e4! - 2 * beat).toBeGreaterThanOrEqual(0)
  expect(e4! - 2 * beat).toBeLessThan(0.01)
  expect(level(2 * beat + 0.01, 2 * beat + 0.05) - level(2 * beat - 0.03, 2 * beat)).toBeGreaterThan(15)
  // Each note at its pitch (within a quarter of a semitone).
  const pitch = (t: number) => dominantFrequency(left.subarray(at(t + 0.03), at(t + 0.03) + 8192), sr)
  expect(Math.abs(12 * Math.log2(pitch(0) / hz(60)))).toBeLessThan(0.25)
  expect(Math.abs(12 * Math.log2(pitch(2 * beat) / hz(64)))).toBeLessThan(0.25)
  // The undone G4 on beat 5 is not there: no onset, and far quieter than when E4 began.
  expect(onset(4 * beat)).toBeNull()
  expect(level(4 * beat, 4 * beat + 0.2)).toBeLessThan(level(2 * beat, 2 * beat + 0.2) - 12)

  // Saved with the project, opened again after a reload: the notes and their render come back.
  await page.getByRole('button', { name: 'Save Project' }).click()
  await expect(page.getByRole('button', { name: 'Open Project 1' })).toBeVisible()
  await page.reload()
  await page.getByRole('button', { name: 'Open Project 1' }).click()
  await page.getByRole('button', { name: 'Select Acoustic Grand Piano for effects' }).click()
  await expect(notes).toHaveCount(2)
  await expect(notes.nth(1)).toHaveAttribute('aria-label', 'E4 at bar 1 beat 3, 1 beat, velocity 100')
  await page.getByRole('button', { name: 'Play mix' }).click()
  await expect.poll(async () => Number(await meter.getAttribute('data-peak')), { timeout: 15_000 }).toBeGreaterThan(0.01)
  await page.getByRole('button', { name: 'Pause mix' }).click()
})
