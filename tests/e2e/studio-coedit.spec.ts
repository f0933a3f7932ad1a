import { readFileSync } from 'node:fs'
import { type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import { signUpByApi } from './support/session.ts'
import { addAudioTrack, goLive, inviteByUsername, openMixer, saveProject } from './support/studio.ts'
import { parseWav, rms, tone } from './fixtures/audio.ts'

// Three studios in one live project through the real local backend: the owner and an editor edit at
// once (the owner moves and trims a clip, the editor draws notes, both turn the same knob, the editor
// undoes their own edit); the mix is then the same in both, in a viewer's studio and after a reload,
// down to the exported WAV (a null test); what the viewer changes stays in the viewer's studio.

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`

/** Each track's clips as the studio's own state has them (controls are read from the sliders). */
const mixOf = (page: Page) =>
  page.evaluate(() => JSON.stringify((window as unknown as { __cubeStudio: { clips(): unknown } }).__cubeStudio.clips()))

/** The mix as the Export button writes it. */
async function exported(page: Page) {
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export WAV' }).click()
  return parseWav(readFileSync(await (await download).path()))
}

const slider = (page: Page, name: string) => page.getByRole('slider', { name })

async function joinLive(page: Page, label: string) {
  const panel = page.getByTestId('live-session')
  await panel.getByRole('button', { name: 'Join live' }).click()
  await expect(panel.getByRole('status')).toContainText(`as ${label}.`)
}

test('owner and editor edit one project at once; every studio, a reload and the exported WAVs agree; a viewer cannot write', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000)
  await signUpByApi(page, { username: `co_${unique()}`.slice(0, 20) })
  const editorPage = await (await browser.newContext()).newPage()
  const editor = await signUpByApi(editorPage, { username: `ce_${unique()}`.slice(0, 20) })
  const viewerPage = await (await browser.newContext()).newPage()
  await signUpByApi(viewerPage, { username: `cv_${unique()}`.slice(0, 20) })

  // The owner's project: a clip of audio and an instrument track, saved to the account, live.
  await openMixer(page)
  await addAudioTrack(page, 'groove', [tone(330, 3, 48000)])
  await page.getByRole('button', { name: 'Add Instrument Track' }).click()
  await expect(page.getByRole('listitem', { name: 'Acoustic Grand Piano', exact: true })).toBeVisible()
  await saveProject(page)
  await expect(page.getByTestId('project-in-account')).toBeVisible()
  const live = await goLive(page)
  await inviteByUsername(live, editor.username, 'editor')
  await live.getByLabel('Invite link role').selectOption('viewer')
  await live.getByRole('button', { name: 'Create invite link' }).click()
  const link = await live.getByLabel('Invite link as viewer').inputValue()

  await openMixer(editorPage)
  await joinLive(editorPage, 'editor')
  await expect(editorPage.getByRole('listitem', { name: 'groove', exact: true })).toBeVisible()
  await viewerPage.goto(link)
  await joinLive(viewerPage, 'viewer')
  await expect(viewerPage.getByRole('listitem', { name: 'Acoustic Grand Piano', exact: true })).toBeVisible()
  await expect.poll(() => mixOf(editorPage)).toBe(await mixOf(page))

  // At once: the owner moves the clip a beat and trims its tail and turns the groove's volume down;
  // the editor draws two notes and turns the same volume up, then undoes that turn of theirs.
  const grid = editorPage.getByTestId('piano-roll-grid')
  await editorPage.getByRole('button', { name: 'Select Acoustic Grand Piano for effects' }).click()
  await expect(grid).toBeVisible()
  await Promise.all([
    (async () => {
      const clip = page.getByTestId('clip').first()
      await clip.focus()
      await page.keyboard.press('ArrowRight')
      await page.keyboard.press('Shift+ArrowLeft')
      await slider(page, 'groove Volume').focus()
      for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowLeft')
    })(),
    (async () => {
      await grid.click({ position: { x: 0.4 * 32, y: (108 - 60 + 0.5) * 14 } })
      await grid.click({ position: { x: 2.4 * 32, y: (108 - 67 + 0.5) * 14 } })
      await slider(editorPage, 'groove Volume').focus()
      for (let i = 0; i < 5; i++) await editorPage.keyboard.press('ArrowRight')
      // One step of ten (Page Up): undone as one edit however long the machine takes between key presses.
      await slider(editorPage, 'groove Pan').focus()
      await editorPage.keyboard.press('PageUp')
    })(),
  ])
  await expect(editorPage.getByTestId('piano-roll-note')).toHaveCount(2)
  // The editor takes back their pan (their last edit); the owner's edits and the notes stay.
  await editorPage.getByRole('button', { name: /^Undo / }).click()
  await expect(slider(editorPage, 'groove Pan')).toHaveAttribute('aria-valuenow', '0')

  // One state everywhere: the owner's, the editor's and the viewer's studios.
  const settled = async () => {
    await expect.poll(() => mixOf(editorPage), { timeout: 15_000 }).toBe(await mixOf(page))
    await expect.poll(() => mixOf(viewerPage), { timeout: 15_000 }).toBe(await mixOf(page))
    for (const p of [page, editorPage, viewerPage]) {
      await expect(slider(p, 'groove Volume')).toHaveAttribute(
        'aria-valuenow',
        (await slider(page, 'groove Volume').getAttribute('aria-valuenow')) ?? '',
      )
      await expect(slider(p, 'groove Pan')).toHaveAttribute('aria-valuenow', '0')
    }
  }
  await settled()
  // The editor's notes are in the owner's and the viewer's piano rolls.
  for (const p of [page, viewerPage]) {
    await p.getByRole('button', { name: 'Select Acoustic Grand Piano for effects' }).click()
    await expect(p.getByTestId('piano-roll-note')).toHaveCount(2)
  }
  const clips = JSON.parse(await mixOf(page)) as { track: string; clips: { start: number; length: number }[] }[]
  const groove = clips.find((c) => c.track === 'groove')!.clips[0]!
  expect(groove.start, 'the owner moved the clip').toBeGreaterThan(0)
  expect(groove.length, 'the owner trimmed its tail').toBeLessThan(3)

  // Exported in each studio: the same samples (the difference is silence), and the mix is not silent.
  const [mine, theirs, watched] = [await exported(page), await exported(editorPage), await exported(viewerPage)]
  expect(rms(mine.channels[0]!)).toBeGreaterThan(0.01)
  for (const other of [theirs, watched]) {
    expect(other.channels[0]!.length).toBe(mine.channels[0]!.length)
    let worst = 0
    for (let ch = 0; ch < mine.channels.length; ch++)
      for (let i = 0; i < mine.channels[ch]!.length; i++)
        worst = Math.max(worst, Math.abs(mine.channels[ch]![i]! - other.channels[ch]![i]!))
    expect(worst, 'the null test: largest sample difference between two studios').toBe(0)
  }

  // The editor reloads and joins again: the project comes back as it is.
  await editorPage.reload()
  await expect(editorPage.getByRole('heading', { name: 'Mixer Tracks' })).toBeVisible()
  await joinLive(editorPage, 'editor')
  await settled()

  // The viewer's knob stays in the viewer's studio: nobody else's mix moves.
  const ownerVolume = await slider(page, 'groove Volume').getAttribute('aria-valuenow')
  await slider(viewerPage, 'groove Volume').focus()
  for (let i = 0; i < 6; i++) await viewerPage.keyboard.press('ArrowLeft')
  await expect(slider(viewerPage, 'groove Volume')).not.toHaveAttribute('aria-valuenow', ownerVolume ?? '')
  // What the others would show by now had it gone out: an edit of the owner's reaches the editor first.
  await page.getByRole('button', { name: 'Select groove for effects' }).click()
  await slider(page, 'groove Pan').focus()
  await page.keyboard.press('ArrowLeft')
  await expect(slider(editorPage, 'groove Pan')).not.toHaveAttribute('aria-valuenow', '0')
  await expect(slider(page, 'groove Volume')).toHaveAttribute('aria-valuenow', ownerVolume ?? '')
  await expect(slider(editorPage, 'groove Volume')).toHaveAttribute('aria-valuenow', ownerVolume ?? '')
})
