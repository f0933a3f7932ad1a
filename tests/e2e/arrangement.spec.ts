import { type Locator, type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { makeWav, tone } from './fixtures/audio.ts'
import { MICROPHONE_FLAGS, launchOptions } from './support/browser.ts'
import type { Clip } from '../../src/engine/arrangement/clip.ts'

// The count-in test records from Chromium's fake microphone.
test.use({ launchOptions: launchOptions(MICROPHONE_FLAGS), permissions: ['microphone'] })

type ClipInfo = Clip
interface Hook {
  renderOffline: (o?: { engine?: 'workers' | 'graph' }) => Promise<Float32Array[]>
  clips: () => { track: string; clips: ClipInfo[] }[]
  sampleRate: () => number
}
/** The studio's read-only test hook (src/features/studio/mixer/studio-debug-hook.ts). */
type WithHook = { __cubeStudio: Hook }

async function openMixer(page: Page) {
  await page.goto('/app/studio')
  await expect(page.getByRole('heading', { name: 'Mixer Tracks' })).toBeVisible()
}

const clipsOf = (page: Page, track: string) =>
  page.evaluate((t) => (window as unknown as WithHook).__cubeStudio.clips().find((x) => x.track === t)?.clips ?? [], track)

/** Drags from the centre of `from` by dx pixels, in steps, as a hand would. */
async function dragBy(page: Page, from: Locator, dx: number) {
  const box = (await from.boundingBox())!
  const x = box.x + box.width / 2
  const y = box.y + box.height / 2
  await page.mouse.move(x, y)
  await page.mouse.down()
  for (let i = 1; i <= 8; i++) await page.mouse.move(x + (dx * i) / 8, y)
  await page.mouse.up()
}

async function zoom(page: Page): Promise<number> {
  return parseFloat(await page.getByTestId('timeline-zoom').innerText())
}

test('a Sound Library loop dragged out to 8 bars fills them seamlessly; the export equals the live graph', async ({ page }) => {
  await openMixer(page)
  await page.getByRole('tab', { name: 'Sound Library' }).click()
  await page.getByRole('button', { name: 'Add Electro Drum Loop' }).click()
  await expect(page.getByText('Sound added')).toBeVisible()
  // The project takes the loop's tempo; the clip is its two whole bars, not the MP3's padded length.
  await expect(page.getByLabel('Project tempo (BPM)')).toHaveValue('120')
  await expect.poll(async () => (await clipsOf(page, 'Electro Drum Loop'))[0]?.sourceEnd).toBe(4)
  // No effects that remember earlier audio, so every repetition must come out identical.
  for (const name of ['Electro Drum Loop Reverb', 'Master reverb']) {
    const s = page.getByRole('slider', { name })
    await s.focus()
    await s.press('Home')
  }

  await page.getByRole('button', { name: 'Zoom out' }).click()
  await page.getByRole('button', { name: 'Zoom out' }).click()
  const pxPerSecond = await zoom(page)
  const clip = page.getByTestId('clip').first()
  await dragBy(page, clip.locator('[data-handle="loop"]'), 12 * pxPerSecond)
  await expect.poll(async () => (await clipsOf(page, 'Electro Drum Loop'))[0]?.length).toBe(16) // snapped to the beat: 8 bars
  await expect(clip).toHaveAccessibleName(/16\.00 s long, looping 4\.00 s/)

  const m = await page.evaluate(async () => {
    const hook = (window as unknown as WithHook).__cubeStudio
    const sr = hook.sampleRate()
    const [l] = await hook.renderOffline()
    const [g] = await hook.renderOffline({ engine: 'graph' })
    let diff = 0
    for (let i = 0; i < l!.length; i++) diff = Math.max(diff, Math.abs(l![i]! - g![i]!))
    // Repetitions 3 and 4 (8–12 s and 12–16 s) against repetition 2 (4–8 s).
    const cycle = 4 * sr
    let rep = 0
    let energy = 0
    for (let i = 0; i < cycle; i++) {
      rep = Math.max(rep, Math.abs(l![cycle + i]! - l![2 * cycle + i]!), Math.abs(l![cycle + i]! - l![3 * cycle + i]!))
      energy += l![3 * cycle + i]! ** 2
    }
    return { seconds: l!.length / sr, diff, rep, lastRms: Math.sqrt(energy / cycle) }
  })
  expect(m.seconds).toBeCloseTo(16, 3)
  expect(20 * Math.log10(Math.max(m.diff, 1e-12))).toBeLessThan(-90)
  expect(m.lastRms).toBeGreaterThan(0.01) // it plays to the end of the 8th bar
  expect(20 * Math.log10(Math.max(m.rep, 1e-12))).toBeLessThan(-90) // seamless: each loop point joins exactly
})

test('clips: move with snapping, trim, split at the playhead, duplicate, delete, gain, fades and zoom, by pointer and keyboard', async ({
  page,
}) => {
  await openMixer(page)
  await page
    .getByTestId('upload-input')
    .setInputFiles({ name: 'arr.wav', mimeType: 'audio/wav', buffer: makeWav([tone(330, 4, 48000)], 48000) })
  await expect(page.getByRole('listitem', { name: 'arr', exact: true })).toBeVisible()
  const clip = page.getByTestId('clip').first()
  await expect(clip).toBeVisible()

  // Zoom: buttons, keyboard on a focused clip, Ctrl + wheel.
  const z0 = await zoom(page)
  await page.getByRole('button', { name: 'Zoom in' }).click()
  expect(await zoom(page)).toBeGreaterThan(z0)
  await clip.focus()
  await page.keyboard.press('-')
  expect(await zoom(page)).toBeCloseTo(z0, 0)
  const scroller = page.getByTestId('timeline-scroller')
  // The wheel goes to what is under the pointer: the lane must be on screen, clear of the player bar.
  await scroller.evaluate((el) => el.scrollIntoView({ block: 'center' }))
  const sb = (await scroller.boundingBox())!
  await page.mouse.move(sb.x + 50, sb.y + 40)
  await page.keyboard.down('Control')
  await page.mouse.wheel(0, -200)
  await page.keyboard.up('Control')
  await expect.poll(() => zoom(page)).toBeGreaterThan(z0)
  await page.getByRole('button', { name: 'Zoom out' }).click()
  await page.getByRole('button', { name: 'Zoom out' }).click()
  const px = await zoom(page)

  // Move by pointer, snapped to the beat (0.5 s at 120 BPM).
  await dragBy(page, clip, 1.37 * px)
  await expect.poll(async () => (await clipsOf(page, 'arr'))[0]?.start).toBe(1.5)
  // Snap to bars instead, then move by keyboard one bar.
  await page.getByLabel('Snap grid').selectOption('bar')
  await clip.focus()
  await page.keyboard.press('ArrowRight')
  await expect.poll(async () => (await clipsOf(page, 'arr'))[0]?.start).toBe(3.5)
  await page.keyboard.press('ArrowLeft')
  await page.getByLabel('Snap grid').selectOption('off')

  // Trim the head by pointer: the audio under the rest stays where it was.
  await dragBy(page, clip.locator('[data-handle="start"]'), 1 * px)
  await expect.poll(async () => (await clipsOf(page, 'arr'))[0]?.sourceStart ?? 0).toBeGreaterThan(0.8)
  const trimmed = (await clipsOf(page, 'arr'))[0]!
  expect(trimmed.start - trimmed.sourceStart).toBeCloseTo(1.5, 2)
  // Trim the tail from the keyboard (Shift + ←, 0.1 s with snapping off).
  await clip.focus()
  await page.keyboard.press('Shift+ArrowLeft')
  await expect.poll(async () => (await clipsOf(page, 'arr'))[0]?.length).toBeCloseTo(trimmed.length - 0.1, 6)

  // Split at the playhead (seek by clicking the ruler), then duplicate and delete.
  const ruler = page.getByTestId('timeline-ruler')
  const rb = (await ruler.boundingBox())!
  await page.mouse.click(rb.x + 3.5 * px, rb.y + 5)
  await clip.focus()
  await page.keyboard.press('s')
  await expect.poll(async () => (await clipsOf(page, 'arr')).length).toBe(2)
  const [left, right] = await clipsOf(page, 'arr')
  expect(left!.start + left!.length).toBeCloseTo(3.5, 1)
  expect(right!.start).toBeCloseTo(left!.start + left!.length, 9)
  expect(right!.sourceStart).toBeCloseTo(left!.sourceStart + left!.length, 9)
  await page.getByRole('button', { name: 'Duplicate' }).click()
  await expect.poll(async () => (await clipsOf(page, 'arr')).length).toBe(3)
  await page.getByRole('button', { name: 'Delete clip' }).click()
  await expect.poll(async () => (await clipsOf(page, 'arr')).length).toBe(2)

  // Gain and fades on the first clip, from the inspector's sliders.
  await page.getByTestId('clip').first().click()
  const gain = page.getByRole('slider', { name: 'Clip gain' })
  await gain.focus()
  for (let i = 0; i < 50; i++) await gain.press('ArrowLeft')
  await expect(page.getByTestId('clip-gain')).toContainText('-6.0')
  const fadeIn = page.getByRole('slider', { name: 'Fade in' })
  await fadeIn.focus()
  await fadeIn.press('PageUp')
  await expect.poll(async () => (await clipsOf(page, 'arr'))[0]?.fadeIn ?? 0).toBeGreaterThan(0)
  const first = (await clipsOf(page, 'arr'))[0]!
  expect(first.gain).toBeCloseTo(0.5, 6)

  // What is heard follows: the first clip at half gain with its fade, silence before it.
  const level = await page.evaluate(async (c) => {
    const hook = (window as unknown as WithHook).__cubeStudio
    const sr = hook.sampleRate()
    const [l] = await hook.renderOffline()
    const rms = (a: number, b: number) => {
      let s = 0
      for (let i = Math.round(a * sr); i < Math.round(b * sr); i++) s += l![i]! ** 2
      return Math.sqrt(s / (Math.round(b * sr) - Math.round(a * sr)))
    }
    return { before: rms(0, c.start - 0.05), body: rms(c.start + c.fadeIn + 0.05, c.start + c.length - 0.05) }
  }, first)
  expect(level.before).toBeLessThan(1e-4)
  expect(level.body).toBeGreaterThan(0.01)
  await expectNoSeriousA11yViolations(page)
})

test('a loop region plays its bars over and over, without stopping, until looping is switched off', async ({ page }) => {
  await openMixer(page)
  await page
    .getByTestId('upload-input')
    .setInputFiles({ name: 'looped.wav', mimeType: 'audio/wav', buffer: makeWav([tone(330, 6, 48000)], 48000) })
  await expect(page.getByRole('listitem', { name: 'looped', exact: true })).toBeVisible()
  const position = async () => {
    const m = /^(\d+):(\d+)\.(\d)/.exec((await page.getByTestId('transport-time').textContent()) ?? '')!
    return Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) / 10
  }
  const masterLevel = () => page.evaluate(() => (window as unknown as { __cube: { masterLevel(): number } }).__cube.masterLevel())
  // Bars 1 to 2 at 120 BPM: the first two seconds.
  await page.getByLabel('Loop to bar').fill('2')
  await page.getByLabel('Loop to bar').press('Enter')
  await page.getByRole('checkbox', { name: 'Loop bars' }).check()
  await expect(page.getByTestId('loop-band')).toBeVisible()

  await page.getByRole('button', { name: 'Play mix' }).click()
  const seen: number[] = []
  for (let i = 0; i < 14; i++) {
    await page.waitForTimeout(350)
    seen.push(await position())
    // Sound all the way through the wraps (a gap would drop the level between two reads).
    expect(await masterLevel()).toBeGreaterThan(0.01)
  }
  // Nearly 5 s of playing, never past the region's end, and it went round at least twice.
  expect(Math.max(...seen)).toBeLessThan(2.05)
  expect(seen.filter((p, i) => i > 0 && p < seen[i - 1]!).length).toBeGreaterThanOrEqual(2)

  // Switched off while playing: it carries on past bar 2 to the end of the mix.
  await page.getByRole('checkbox', { name: 'Loop bars' }).uncheck()
  await expect.poll(position, { timeout: 10_000 }).toBeGreaterThan(2.5)
  await page.getByRole('button', { name: 'Pause mix' }).click()
})

test(
  'metronome clicks on the beats while playing (never in the export); count-in gives a bar of clicks, then records ' + 'with the mix',
  async ({ page }) => {
    await openMixer(page)
    // A silent track: whatever the master bus hears is the metronome. Long enough that a loaded
    // machine never plays it to its end (which stops the mix) between the steps below.
    await page
      .getByTestId('upload-input')
      .setInputFiles({ name: 'silence.wav', mimeType: 'audio/wav', buffer: makeWav([new Float32Array(48000 * 30)], 48000) })
    await expect(page.getByRole('listitem', { name: 'silence', exact: true })).toBeVisible()
    const masterPeakOver = (ms: number) =>
      page.evaluate(async (ms) => {
        const level = (window as unknown as { __cube: { masterLevel(): number } }).__cube.masterLevel
        let peak = 0
        const until = performance.now() + ms
        while (performance.now() < until) {
          peak = Math.max(peak, level())
          await new Promise((r) => setTimeout(r, 5))
        }
        return peak
      }, ms)

    await page.getByRole('button', { name: 'Play mix' }).click()
    expect(await masterPeakOver(1200)).toBeLessThan(1e-4)
    await page.getByRole('checkbox', { name: 'Metronome' }).check()
    expect(await masterPeakOver(1200)).toBeGreaterThan(0.01) // at 120 BPM two or three clicks in that time
    await page.getByRole('checkbox', { name: 'Metronome' }).uncheck()
    await page.getByRole('button', { name: 'Pause mix' }).click()
    await expect(page.getByRole('button', { name: 'Play mix' })).toBeVisible()
    const exported = await page.evaluate(async () => {
      const [l] = await (window as unknown as WithHook).__cubeStudio.renderOffline()
      return l!.reduce((m, x) => Math.max(m, Math.abs(x)), 0)
    })
    expect(exported).toBe(0)

    // Count-in from the playhead at 1 s: beats shown from 4 down, the microphone keeps only what follows
    // the bar, the mix plays along from the playhead, and the take lands on it.
    const pos = page.getByRole('slider', { name: 'Mix position' })
    await pos.focus()
    await pos.press('Home')
    for (let i = 0; i < 10; i++) await pos.press('ArrowRight') // 0.1 s steps
    await expect(page.getByTestId('transport-time')).toHaveText(/^0:01\.0/)
    await page.getByRole('checkbox', { name: 'Count-in before recording' }).check()
    const clickedAt = Date.now()
    await page.getByRole('button', { name: 'Record Microphone' }).click()
    await expect(page.getByTestId('count-in-beat')).toHaveText('4')
    await expect(page.getByRole('button', { name: 'Pause mix' })).toBeVisible({ timeout: 10_000 })
    // The mix only starts after the bar of clicks (2 s at 120 BPM).
    expect(Date.now() - clickedAt).toBeGreaterThan(1500)
    await expect(page.getByTestId('count-in')).toBeHidden()
    await expect(page.getByRole('button', { name: 'Stop Recording' })).toBeVisible()
    // A second of the take really captured (a fixed 1 s wait on a loaded machine could stop the
    // recorder before its first chunk was stored, and then there is no take to place).
    await expect(page.getByTestId('recording-elapsed')).toHaveText(/^0:0[1-9]/, { timeout: 15_000 })
    await page.getByRole('button', { name: 'Stop Recording' }).click()
    await expect(page.getByRole('listitem', { name: 'Recording 1', exact: true })).toBeVisible({ timeout: 15_000 })
    const offset = await page.evaluate(
      () => (window as unknown as WithHook).__cubeStudio.clips().find((t) => t.track === 'Recording 1')!.clips[0]!.start,
    )
    // On the playhead (1.0 s), within the output latency the take is trimmed by.
    expect(offset).toBeGreaterThanOrEqual(0.95)
    expect(offset).toBeLessThan(1.15)
  },
)

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true })

  test('two fingers spreading apart on the timeline zoom in; pinching together zooms out', async ({ page }) => {
    await openMixer(page)
    await page
      .getByTestId('upload-input')
      .setInputFiles({ name: 'touch.wav', mimeType: 'audio/wav', buffer: makeWav([tone(330, 2, 48000)], 48000) })
    await expect(page.getByTestId('clip').first()).toBeVisible()
    const box = (await page.getByTestId('timeline-ruler').boundingBox())!
    const cdp = await page.context().newCDPSession(page)
    const y = box.y + box.height / 2
    const cx = box.x + 200
    const touch = async (type: 'touchStart' | 'touchMove' | 'touchEnd', half: number) =>
      cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints:
          type === 'touchEnd'
            ? []
            : [
                { x: cx - half, y, id: 1 },
                { x: cx + half, y, id: 2 },
              ],
      })
    const z0 = await zoom(page)
    await touch('touchStart', 40)
    for (const half of [50, 60, 70, 80]) await touch('touchMove', half)
    await touch('touchEnd', 0)
    await expect.poll(() => zoom(page)).toBeGreaterThan(z0 * 1.5)
    const z1 = await zoom(page)
    await touch('touchStart', 80)
    for (const half of [60, 40]) await touch('touchMove', half)
    await touch('touchEnd', 0)
    await expect.poll(() => zoom(page)).toBeLessThan(z1 * 0.75)
  })
})
