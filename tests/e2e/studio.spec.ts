import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from '@playwright/test'
import { unzipSync } from 'fflate'
import { expect, test } from './support/test.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { MICROPHONE_FLAGS, launchOptions } from './support/browser.ts'
import { dbfs, dominantFrequency, makeWav, noise, parseWav, rms, spectralCentroid, tone } from './fixtures/audio.ts'

// The fake microphone plays this file (16-bit, 48 kHz, stereo: 440 Hz left, 660 Hz right),
// generated here before launch; the fake device reports two channels, as a stereo interface does.
const FIXTURE_DIR = mkdtempSync(join(tmpdir(), 'cube-studio-'))
const MIC_TONE_HZ = 440
const MIC_RIGHT_TONE_HZ = 660
const MIC_WAV = join(FIXTURE_DIR, 'mic-tone-440-660.wav')
writeFileSync(MIC_WAV, makeWav([tone(MIC_TONE_HZ, 8, 48000, 0.5), tone(MIC_RIGHT_TONE_HZ, 8, 48000, 0.5)], 48000))

test.use({
  launchOptions: launchOptions([...MICROPHONE_FLAGS, `--use-file-for-fake-audio-capture=${MIC_WAV}`]),
  permissions: ['microphone'],
})

type Rendered = { channels: Float32Array[]; sampleRate: number }
/** The app's documented debug hook (src/features/studio/mixer/studio-debug-hook.ts). */
type StudioHook = {
  renderOffline(options?: { engine?: 'workers' | 'graph' }): Promise<Float32Array[]>
  trackAudio(name: string): { sampleRate: number; channels: Float32Array[] } | null
  tracks(): { name: string; type: string; offset: number; duration: number }[]
  sampleRate(): number
  transport(): { playing: boolean; position: number; wallMs: number; latency: number }
  positionAt(wallMs: number): number | null
}
declare global {
  interface Window {
    __cubeStudio?: StudioHook
  }
}

async function openMixer(page: Page) {
  await page.goto('/app/studio')
  await expect(page.getByRole('heading', { level: 1, name: 'My Music Studio' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Mixer Tracks' })).toBeVisible()
}

async function upload(page: Page, name: string, channels: Float32Array[], sampleRate = 48000) {
  await page.getByTestId('upload-input').setInputFiles({ name, mimeType: 'audio/wav', buffer: makeWav(channels, sampleRate) })
  const base = name.replace(/\.[^.]+$/, '')
  await expect(page.getByRole('listitem', { name: base, exact: true })).toBeVisible()
  return base
}

/**
 * Audio from the studio hook: an offline render of the mix, or a track's decoded audio. The samples
 * leave the page as base64 of their raw 32-bit floats and arrive as the very same Float32Array
 * values (a JSON array of numbers is far slower to build, send and parse).
 */
async function hookAudio(page: Page, what: { render: 'workers' | 'graph' | undefined } | { track: string }): Promise<Rendered | null> {
  const got = await page.evaluate(async (w) => {
    const hook = window.__cubeStudio!
    let audio: { sampleRate: number; channels: Float32Array[] } | null
    if ('track' in w) audio = hook.trackAudio(w.track)
    else
      audio = {
        channels: await hook.renderOffline(w.render === undefined ? undefined : { engine: w.render }),
        sampleRate: hook.sampleRate(),
      }
    if (!audio) return null
    const base64 = (c: Float32Array) =>
      new Promise<string>((resolve, reject) => {
        const reader = new FileReader()
        reader.onload = () => resolve(String(reader.result).slice(String(reader.result).indexOf(',') + 1))
        reader.onerror = () => reject(reader.error)
        reader.readAsDataURL(new Blob([c.slice()]))
      })
    return { sampleRate: audio.sampleRate, channels: await Promise.all(audio.channels.map(base64)) }
  }, what)
  if (!got) return null
  const channels = got.channels.map((b64) => {
    const bytes = Buffer.from(b64, 'base64')
    return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
  })
  return { sampleRate: got.sampleRate, channels }
}

/** 'graph': the single graph the live mixer plays, offline; by default the export's render (strips in workers). */
const renderOffline = async (page: Page, engine?: 'workers' | 'graph'): Promise<Rendered> => (await hookAudio(page, { render: engine }))!

const trackAudio = (page: Page, name: string) => hookAudio(page, { track: name })

/** Resolves after two animation frames of the page (a frame that started after this call has run). */
const afterNextFrame = (page: Page) =>
  page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))))

/** Radix sliders from the keyboard: Home goes to the minimum, Page Up adds 10 steps. */
async function setSlider(page: Page, name: string, value: number, min = 0) {
  const s = page.getByRole('slider', { name, exact: true })
  await s.focus()
  await s.press('Home')
  const steps = value - min
  for (let i = 0; i < Math.floor(steps / 10); i++) await s.press('PageUp')
  for (let i = 0; i < steps % 10; i++) await s.press('ArrowRight')
  await expect(s).toHaveAttribute('aria-valuenow', String(value))
}

test('studio page: cards, tabs, and /app/create opens the AI Generator tab', async ({ page }) => {
  await openMixer(page)
  await expect(page.getByRole('main').getByRole('link', { name: /AI Generator/ })).toHaveAttribute('href', '/app/create')
  await expect(
    page
      .getByRole('main')
      .getByRole('link', { name: /Remix Tracks/ })
      .first(),
  ).toHaveAttribute('href', '/app/remix')
  await expect(page.getByRole('tab', { name: 'Live Mixer' })).toHaveAttribute('aria-selected', 'true')
  for (const b of ['Save Project', 'Upload Audio', 'Record Microphone']) await expect(page.getByRole('button', { name: b })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Master Controls' })).toBeVisible()
  await expect(page.getByRole('slider', { name: 'Master volume' })).toHaveAttribute('aria-valuenow', '80')
  await expect(page.getByRole('slider', { name: 'Master reverb' })).toHaveAttribute('aria-valuenow', '30')
  await expectNoSeriousA11yViolations(page)

  await page.getByRole('tab', { name: 'Remix Tracks' }).click()
  await expect(page.getByRole('tabpanel').getByRole('link', { name: /Remix Tracks/ })).toHaveAttribute('href', '/app/remix')

  await page.goto('/app/create')
  await expect(page.getByRole('tab', { name: 'AI Generator' })).toHaveAttribute('aria-selected', 'true')
  // The tab renders the generator (its own spec covers generation itself).
  await expect(page.getByRole('tabpanel').getByText('Generate Music').first()).toBeVisible()
  await expectNoSeriousA11yViolations(page)
  await page.getByRole('tab', { name: 'Live Mixer' }).click()
  await expect(page).toHaveURL(/\/app\/studio$/)
})

test('a new track has the default controls, pan reads L/C/R, and the sound library adds sounds', async ({ page }) => {
  await openMixer(page)
  const name = await upload(page, 'defaults.wav', [tone(220, 1, 48000)])
  await expect(page.getByRole('slider', { name: `${name} Volume` })).toHaveAttribute('aria-valuenow', '70')
  await expect(page.getByRole('slider', { name: `${name} Pan` })).toHaveAttribute('aria-valuetext', 'C')
  await expect(page.getByRole('slider', { name: `${name} Reverb` })).toHaveAttribute('aria-valuenow', '20')
  for (const e of ['Lowpass', 'Highpass', 'Distortion', 'Delay', 'Compression', 'Chorus'])
    await expect(page.getByRole('slider', { name: `${name} ${e}` })).toHaveAttribute('aria-valuenow', '0')
  const pan = page.getByRole('slider', { name: `${name} Pan` })
  await pan.focus()
  await pan.press('ArrowLeft')
  await pan.press('ArrowLeft')
  await expect(pan).toHaveAttribute('aria-valuetext', 'L2')
  await pan.press('End')
  await expect(pan).toHaveAttribute('aria-valuetext', 'R50')
  await expect(page.getByTestId('track-type')).toHaveText('main')
  await expectNoSeriousA11yViolations(page)

  await page.getByRole('tab', { name: 'Sound Library' }).click()
  for (const category of ['drums', 'bass', 'synth', 'fx'])
    await expect(page.getByRole('list', { name: 'Sound library' }).getByText(category, { exact: true }).first()).toBeVisible()
  // Preview plays the shipped sample through the master bus.
  const masterLevel = () => page.evaluate(() => (window as unknown as { __cube: { masterLevel(): number } }).__cube.masterLevel())
  await page
    .getByRole('button', { name: /^Preview / })
    .first()
    .click()
  await expect(page.getByRole('button', { name: /^Stop preview of / })).toBeVisible()
  await expect.poll(masterLevel).toBeGreaterThan(0.005)
  await page.getByRole('button', { name: /^Stop preview of / }).click()
  await page.getByRole('list', { name: 'Sound library' }).getByRole('button', { name: /^Add / }).first().click()
  await expect(page.getByText('Sound added')).toBeVisible()
  await expect(page.getByTestId('mixer-track')).toHaveCount(2)
  await expect(page.getByTestId('track-type').nth(1)).toHaveText('effect')
  await page.getByRole('button', { name: 'Generate Sound with AI' }).click()
  await expect(page.getByText('Coming Soon')).toBeVisible()
})

test('record 3 s from the microphone: a Recording 1 track carrying the device tone', async ({ page }) => {
  await openMixer(page)
  const startedAt = Date.now()
  await page.getByRole('button', { name: 'Record Microphone' }).click()
  await expect(page.getByText('Recording started')).toBeVisible()
  await expect(page.getByTestId('recording-elapsed')).toHaveText(/^0:0[3-9]/, { timeout: 15_000 })
  // The live input meter saw the tone.
  expect(Number(await page.getByTestId('input-meter').getAttribute('data-peak'))).toBeGreaterThan(0.1)
  await page.getByRole('button', { name: 'Stop Recording' }).click()
  await expect(page.getByText('Recording saved')).toBeVisible()
  const wallSeconds = (Date.now() - startedAt) / 1000
  const track = page.getByRole('listitem', { name: 'Recording 1' })
  await expect(track).toBeVisible()
  await expect(track.getByTestId('track-type')).toHaveText('recording')

  const audio = (await trackAudio(page, 'Recording 1'))!
  const seconds = audio.channels[0]!.length / audio.sampleRate
  expect(seconds).toBeGreaterThan(2.9)
  // A take cannot be longer than the recorder ran (a loaded machine may stretch the steps).
  expect(seconds).toBeLessThan(wallSeconds)
  const body = audio.channels[0]!.slice(Math.round(0.5 * audio.sampleRate), Math.round(2.5 * audio.sampleRate))
  expect(Math.abs(dominantFrequency(body, audio.sampleRate) - MIC_TONE_HZ)).toBeLessThan(3)
  expect(dbfs(rms(body))).toBeGreaterThan(-20)
  // A stereo device gives a stereo take: each side carries its own tone.
  expect(audio.channels).toHaveLength(2)
  const right = audio.channels[1]!.slice(Math.round(0.5 * audio.sampleRate), Math.round(2.5 * audio.sampleRate))
  expect(Math.abs(dominantFrequency(right, audio.sampleRate) - MIC_RIGHT_TONE_HZ)).toBeLessThan(3)

  // A second take is Recording 2.
  await page.getByRole('button', { name: 'Record Microphone' }).click()
  await expect(page.getByTestId('recording-elapsed')).toHaveText(/^0:0[1-9]/, { timeout: 15_000 })
  await page.getByRole('button', { name: 'Stop Recording' }).click()
  await expect(page.getByRole('listitem', { name: 'Recording 2' })).toBeVisible()
})

test('an interrupted recording is offered for recovery after a reload', async ({ page }) => {
  await openMixer(page)
  await page.getByRole('button', { name: 'Record Microphone' }).click()
  await expect(page.getByTestId('recording-elapsed')).toHaveText(/^0:0[3-9]/, { timeout: 15_000 })
  // Reload mid-take: nothing stops the recording, as in a crash.
  await page.reload()
  await expect(page.getByText(/unfinished recording/)).toBeVisible()
  await page.getByRole('button', { name: 'Recover recording' }).click()
  await expect(page.getByRole('listitem', { name: 'Recording 1' })).toBeVisible()
  const audio = (await trackAudio(page, 'Recording 1'))!
  const seconds = audio.channels[0]!.length / audio.sampleRate
  // Chunks reach IndexedDB every second: at most about one second of the take is lost.
  expect(seconds).toBeGreaterThan(1.9)
  expect(
    Math.abs(dominantFrequency(audio.channels[0]!.slice(0, Math.round(1.5 * audio.sampleRate)), audio.sampleRate) - MIC_TONE_HZ),
  ).toBeLessThan(3)
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Mixer Tracks' })).toBeVisible()
  await expect(page.getByText(/unfinished recording/)).toHaveCount(0)
})

test('denied microphone: a clear message and no track', async ({ baseURL }) => {
  // No fake-device flags and no permission: getUserMedia rejects, as for a user who says no.
  const browser = await chromium.launch(launchOptions())
  try {
    const context = await browser.newContext({ baseURL })
    const page = await context.newPage()
    await openMixer(page)
    await page.getByRole('button', { name: 'Record Microphone' }).click()
    await expect(page.getByTestId('mic-error')).toContainText(/Microphone access was denied|No microphone was found/)
    await expect(page.getByTestId('mixer-track')).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Record Microphone' })).toBeEnabled()
  } finally {
    await browser.close()
  }
})

test('upload: a real WAV becomes a track of the right length; a corrupt file changes nothing', async ({ page }) => {
  await openMixer(page)
  await upload(page, 'two-seconds.wav', [tone(330, 2, 44100), tone(330, 2, 44100)], 44100)
  const audio = (await trackAudio(page, 'two-seconds'))!
  expect(audio.channels).toHaveLength(2)
  expect(audio.channels[0]!.length / audio.sampleRate).toBeCloseTo(2, 2)
  await expect(page.getByRole('listitem', { name: 'two-seconds' })).toContainText('0:02')

  const junk = Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7919) % 251))
  await page.getByTestId('upload-input').setInputFiles({ name: 'broken.wav', mimeType: 'audio/wav', buffer: junk })
  await expect(page.getByText('Could not read audio')).toBeVisible()
  await page.getByTestId('upload-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') })
  await expect(page.getByText('Unsupported file')).toBeVisible()
  await page.getByTestId('upload-input').setInputFiles({ name: 'empty.wav', mimeType: 'audio/wav', buffer: Buffer.alloc(0) })
  await expect(page.getByText('Empty file')).toBeVisible()
  await expect(page.getByTestId('mixer-track')).toHaveCount(1)

  // Drag and drop onto the tracks panel does the same as the picker.
  const dropped = [...makeWav([tone(880, 0.5, 48000)], 48000)]
  await page.getByTestId('drop-zone').evaluate((zone, bytes) => {
    const dt = new DataTransfer()
    dt.items.add(new File([new Uint8Array(bytes)], 'dropped.wav', { type: 'audio/wav' }))
    zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }))
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }))
  }, dropped)
  await expect(page.getByRole('listitem', { name: 'dropped', exact: true })).toBeVisible()
  await expect(page.getByTestId('mixer-track')).toHaveCount(2)
})

test('export shows progress and can be cancelled without a download', async ({ page }) => {
  await openMixer(page)
  // Three minutes at 8 kHz: a small file, but a render long enough to cancel.
  await upload(page, 'long.wav', [noise(180, 8000, 0.2, 3)], 8000)
  let downloads = 0
  page.on('download', () => downloads++)
  await page.getByRole('button', { name: 'Export WAV' }).click()
  const bar = page.getByRole('progressbar', { name: 'Export progress' })
  await expect(bar).toBeVisible()
  await page.getByRole('button', { name: 'Cancel export' }).click()
  await expect(page.getByText('Export cancelled')).toBeVisible()
  await expect(bar).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Export WAV' })).toBeEnabled()
  expect(downloads).toBe(0)
})

test('lowpass 20 lowers the spectral centroid; pan -50 silences the right channel; disabling silences the track', async ({ page }) => {
  await openMixer(page)
  const name = await upload(page, 'noise.wav', [noise(1.5, 48000, 0.3, 1), noise(1.5, 48000, 0.3, 2)])
  const before = await renderOffline(page, 'graph')
  const c0 = spectralCentroid(before.channels[0]!, before.sampleRate)
  await setSlider(page, `${name} Lowpass`, 20)
  const after = await renderOffline(page, 'graph')
  const c1 = spectralCentroid(after.channels[0]!, after.sampleRate)
  expect(c1).toBeLessThan(c0 * 0.5)

  // Reverbs spread a signal across both channels, so they are off for the pan measurement.
  await setSlider(page, `${name} Lowpass`, 0)
  await setSlider(page, `${name} Reverb`, 0)
  await setSlider(page, 'Master reverb', 0)
  await setSlider(page, `${name} Pan`, -50, -50)
  await expect(page.getByRole('slider', { name: `${name} Pan` })).toHaveAttribute('aria-valuetext', 'L50')
  const panned = await renderOffline(page, 'graph')
  expect(dbfs(rms(panned.channels[0]!))).toBeGreaterThan(-30)
  expect(dbfs(rms(panned.channels[1]!))).toBeLessThan(-90)

  await page.getByRole('switch', { name: `${name} enabled` }).click()
  await expect(page.getByRole('slider', { name: `${name} Volume` })).toHaveAttribute('data-disabled', '')
  const off = await renderOffline(page, 'graph')
  expect(dbfs(rms(off.channels[0]!))).toBeLessThan(-90)
  expect(dbfs(rms(off.channels[1]!))).toBeLessThan(-90)
})

test('export: a valid WAV of the mix length that matches an offline render of the live graph (difference below -90 dBFS)', async ({
  page,
}) => {
  await openMixer(page)
  const a = await upload(page, 'a.wav', [noise(1.2, 48000, 0.2, 7)])
  await setSlider(page, `${a} Delay`, 30)
  await setSlider(page, `${a} Chorus`, 25)
  const b = await upload(page, 'b.wav', [tone(660, 0.8, 48000, 0.4)])
  await setSlider(page, `${b} Distortion`, 40)
  await setSlider(page, `${b} Pan`, 20, -50)
  const c = await upload(page, 'c.wav', [noise(0.5, 48000, 0.3, 9), noise(0.5, 48000, 0.3, 10)])
  await setSlider(page, `${c} Compression`, 60)
  await setSlider(page, `${c} Highpass`, 30)
  // The reference is the single graph the live mixer plays, rendered offline; the export must match it.
  const reference = await renderOffline(page, 'graph')

  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export WAV' }).click()
  const file = await (await download).path()
  const wav = parseWav(readFileSync(file))
  expect(wav.format).toBe(1)
  expect(wav.bits).toBe(16)
  expect(wav.sampleRate).toBe(reference.sampleRate)
  expect(wav.channels).toHaveLength(2)
  const longest = Math.max(...(await Promise.all([a, b, c].map(async (n) => (await trackAudio(page, n))!.channels[0]!.length))))
  expect(wav.channels[0]!.length).toBe(longest)
  expect(wav.channels[0]!.length).toBe(reference.channels[0]!.length)
  let maxDiff = 0
  for (let c = 0; c < 2; c++) {
    const diff = wav.channels[c]!.map((v, i) => v - reference.channels[c]![i]!)
    expect(dbfs(rms(diff))).toBeLessThan(-90)
    for (const d of diff) maxDiff = Math.max(maxDiff, Math.abs(d))
  }
  expect(dbfs(maxDiff)).toBeLessThan(-90)
  expect(dbfs(rms(wav.channels[0]!))).toBeGreaterThan(-40)

  // 32-bit float: the render's samples themselves, so the match is far tighter than 16 bits allow.
  await page.getByRole('combobox', { name: 'Export format' }).selectOption('float32')
  const floatDownload = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export WAV' }).click()
  const float = parseWav(readFileSync(await (await floatDownload).path()))
  expect(float.format).toBe(3)
  expect(float.bits).toBe(32)
  expect(float.channels[0]!.length).toBe(reference.channels[0]!.length)
  let floatDiff = 0
  for (let c = 0; c < 2; c++)
    for (let i = 0; i < float.channels[c]!.length; i++)
      floatDiff = Math.max(floatDiff, Math.abs(float.channels[c]![i]! - reference.channels[c]![i]!))
  expect(dbfs(floatDiff)).toBeLessThan(-120)
})

test('export stems: a ZIP with one WAV per audible track, named in track order, each the mix length and only its own track', async ({
  page,
}) => {
  await openMixer(page)
  const a = await upload(page, 'drums.wav', [noise(1.2, 48000, 0.2, 11)])
  const b = await upload(page, 'tone.wav', [tone(440, 0.6, 48000, 0.4)])
  const c = await upload(page, 'off.wav', [noise(0.5, 48000, 0.3, 12)])
  await page.getByRole('switch', { name: `${c} enabled` }).click()
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export stems' }).click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/ stems\.zip$/)
  const files = unzipSync(readFileSync(await file.path()))
  // The disabled track has no stem; the others keep the mixer's order and their names.
  expect(Object.keys(files)).toEqual([`01 ${a}.wav`, `02 ${b}.wav`])
  const [drums, sine] = Object.values(files).map((bytes) => parseWav(Buffer.from(bytes)))
  // The mix's length: where its longest audible track (the drums, decoded at the page's rate) ends.
  const length = (await trackAudio(page, a))!.channels[0]!.length
  expect(drums!.channels[0]!.length).toBe(length)
  expect(sine!.channels[0]!.length).toBe(length)
  expect(dbfs(rms(drums!.channels[0]!))).toBeGreaterThan(-40)
  // The tone's stem holds the tone (440 Hz), dying away after its 0.6 s (the strip's default reverb
  // tail); the drums' stem is the broadband noise, not the tone.
  const rate = sine!.sampleRate
  const during = sine!.channels[0]!.subarray(0, Math.round(0.5 * rate))
  expect(Math.abs(dominantFrequency(during, rate) - 440)).toBeLessThan(15)
  expect(dbfs(rms(sine!.channels[0]!.subarray(Math.round(0.9 * rate))))).toBeLessThan(dbfs(rms(during)) - 20)
  expect(spectralCentroid(drums!.channels[0]!, drums!.sampleRate)).toBeGreaterThan(2000)
  await expect(page.getByText('Stems exported')).toBeVisible()
})

test('save → reload → reopen restores tracks, controls and audio; rename and delete', async ({ page }) => {
  await openMixer(page)
  const name = await upload(page, 'keep.wav', [tone(523, 1, 48000, 0.3)])
  await setSlider(page, `${name} Volume`, 40)
  const original = (await trackAudio(page, name))!
  await page.getByRole('button', { name: 'Save Project' }).click()
  await expect(page.getByText('Project saved')).toBeVisible()

  await page.reload()
  await expect(page.getByTestId('mixer-track')).toHaveCount(0)
  await page.getByRole('button', { name: 'Open Project 1' }).click()
  await expect(page.getByRole('listitem', { name, exact: true })).toBeVisible()
  await expect(page.getByRole('slider', { name: `${name} Volume` })).toHaveAttribute('aria-valuenow', '40')
  const reopened = (await trackAudio(page, name))!
  expect(reopened.sampleRate).toBe(original.sampleRate)
  expect(reopened.channels).toEqual(original.channels)

  await page.getByRole('button', { name: 'Rename Project 1' }).click()
  await page.getByRole('textbox', { name: 'Project name' }).fill('Night Drive')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByRole('button', { name: 'Open Night Drive' })).toBeVisible()
  page.once('dialog', (d) => void d.accept())
  await page.getByRole('button', { name: 'Delete Night Drive' }).click()
  await expect(page.getByTestId('project-item')).toHaveCount(0)
})

test('live playback: play starts every track, meters move, disabling mutes live, pause and resume keep position', async ({ page }) => {
  await openMixer(page)
  const name = await upload(page, 'live.wav', [tone(440, 8, 48000, 0.5)])
  await upload(page, 'live-b.wav', [tone(660, 8, 48000, 0.3)])
  const masterLevel = () => page.evaluate(() => (window as unknown as { __cube: { masterLevel(): number } }).__cube.masterLevel())
  const position = async () => {
    const text = (await page.getByTestId('transport-time').textContent()) ?? ''
    const m = /^(\d+):(\d+)\.(\d)/.exec(text)!
    return Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) / 10
  }

  await page.getByRole('button', { name: 'Play mix' }).click()
  await expect(page.getByRole('button', { name: 'Pause mix' })).toBeVisible()
  await expect.poll(masterLevel).toBeGreaterThan(0.02)
  // Per-track and master levels come from the channel-strip worklets.
  const trackMeter = page.getByRole('listitem', { name, exact: true }).getByRole('meter')
  await expect.poll(async () => Number(await trackMeter.getAttribute('data-peak'))).toBeGreaterThan(0.05)
  await expect.poll(async () => Number(await page.getByTestId('meter-__master__').getAttribute('data-peak'))).toBeGreaterThan(0.05)
  // The master's live waveform draws what leaves the master bus.
  const masterWave = page.getByRole('img', { name: 'Live waveform of the master output' })
  await expect.poll(async () => Number(await masterWave.getAttribute('data-peak'))).toBeGreaterThan(0.05)

  // Live: disabling both tracks silences the output (after the reverb tail), enabling brings it back.
  await page.getByRole('switch', { name: `${name} enabled` }).click()
  await page.getByRole('switch', { name: 'live-b enabled' }).click()
  await expect.poll(masterLevel, { timeout: 8000 }).toBeLessThan(0.001)
  await page.getByRole('switch', { name: `${name} enabled` }).click()
  await expect.poll(masterLevel).toBeGreaterThan(0.02)

  await expect.poll(position).toBeGreaterThan(1)
  await page.getByRole('button', { name: 'Pause mix' }).click()
  await expect(page.getByRole('button', { name: 'Play mix' })).toBeVisible()
  // The clock is written on animation frames: read it once a frame has run since the pause (read
  // straight after the click it could still show the last frame before it, 0.1 s earlier).
  await afterNextFrame(page)
  const paused = await position()
  await expect.poll(masterLevel, { timeout: 8000 }).toBeLessThan(0.001)
  await expect.poll(async () => Number(await masterWave.getAttribute('data-peak'))).toBeLessThan(0.001)
  expect(await position()).toBe(paused)
  await page.getByRole('button', { name: 'Play mix' }).click()
  await expect.poll(position).toBeGreaterThan(paused + 0.3)
  // Resumed from where it paused, not from the start.
  expect(await position()).toBeLessThan(paused + 3)

  // The keyboard seeks too: the Mix position slider (0.1 s steps on a mix under a minute).
  await page.getByRole('button', { name: 'Pause mix' }).click()
  const slider = page.getByRole('slider', { name: 'Mix position' })
  await slider.focus()
  await slider.press('Home')
  await expect.poll(position).toBe(0)
  await slider.press('PageUp')
  await slider.press('PageUp')
  await slider.press('PageUp')
  await expect.poll(position).toBeCloseTo(3, 5)
  await expect(slider).toHaveAttribute('aria-valuetext', '0:03 of 0:08')
  await page.getByRole('button', { name: 'Play mix' }).click()
  await expect.poll(position).toBeGreaterThan(3.3)
  expect(await position()).toBeLessThan(6)
  await expect.poll(async () => Number(await slider.getAttribute('aria-valuenow'))).toBeGreaterThan(3)
  // End while playing ends the mix (back to the start, like reaching the end), not a restart.
  await slider.press('End')
  await expect(page.getByRole('button', { name: 'Play mix' })).toBeVisible()
  await expect.poll(position).toBe(0)
})

test('a take recorded during playback is placed where it was heard on the timeline', async ({ page }) => {
  await openMixer(page)
  await upload(page, 'backing.wav', [tone(330, 10, 48000, 0.3)])
  const position = async () => {
    const m = /^(\d+):(\d+)\.(\d)/.exec((await page.getByTestId('transport-time').textContent()) ?? '')!
    return Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) / 10
  }
  await page.getByRole('button', { name: 'Play mix' }).click()
  await expect.poll(position).toBeGreaterThan(1.5)
  const before = await position()
  await page.getByRole('button', { name: 'Record Microphone' }).click()
  await expect(page.getByTestId('recording-elapsed')).toHaveText(/^0:0[1-9]/, { timeout: 15_000 })
  const during = await position()
  await page.getByRole('button', { name: 'Stop Recording' }).click()
  await expect(page.getByRole('listitem', { name: 'Recording 1', exact: true })).toBeVisible()
  const take = (await page.evaluate(() => window.__cubeStudio!.tracks())).find((t) => t.name === 'Recording 1')!
  // Capture began after `before` and at least a second before `during` (display has 0.1 s steps).
  expect(take.offset).toBeGreaterThan(before - 0.1)
  expect(take.offset).toBeLessThan(during - 0.9)
})
