import { type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import { signUpByApi } from './support/session.ts'
import { addAudioTrack, goLive, inviteByUsername, openMixer, saveProject } from './support/studio.ts'
import { tone } from './fixtures/audio.ts'

// Live collaboration between two browsers through the real local backend: the owner saves a mix to
// the account, goes live and invites by username; the editor joins from "Shared with you", gets the
// mix and its audio, and each sees the other in the project (lane, playhead, a held knob) and the
// other's edits and audio; an edit made offline merges on return; a third creator joins through an
// invite link, which the owner then revokes.

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`

test('two creators in one project: invite by username or link, join live, see each other and each other’s edits', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000)
  const owner = await signUpByApi(page, { username: `own_${unique()}`.slice(0, 20) })
  const editorPage = await (await browser.newContext()).newPage()
  const editor = await signUpByApi(editorPage, { username: `ed_${unique()}`.slice(0, 20) })

  await openMixer(page)
  await addAudioTrack(page, 'groove', [tone(330, 1, 48000)])
  await saveProject(page)
  await expect(page.getByTestId('project-in-account')).toBeVisible()

  const live = await goLive(page)
  await expect(live.getByRole('status')).toContainText('Live in “Project 1” as owner.')
  await inviteByUsername(live, editor.username, 'editor')

  await openMixer(editorPage)
  const theirs = editorPage.getByTestId('live-session')
  await expect(theirs).toContainText(`Project 1 by ${owner.username}`)
  await theirs.getByRole('button', { name: 'Join live' }).click()
  await expect(theirs.getByRole('status')).toContainText('Live in “Project 1” as editor.')
  await expect(editorPage.getByRole('listitem', { name: 'groove', exact: true })).toBeVisible()
  await expect(theirs.getByRole('list', { name: 'In the project now' })).toContainText(owner.username)
  await expect(live.getByRole('list', { name: 'In the project now' })).toContainText(editor.username)

  // Presence in the owner's timeline: the editor's tag on the lane they are on, their playhead.
  await editorPage.getByRole('button', { name: 'Select groove for effects' }).click()
  const grooveLane = page.getByRole('group', { name: 'groove lane' })
  await expect(grooveLane.getByTestId('peer-on-lane')).toHaveText(editor.username)
  await expect(page.locator(`[data-testid="peer-playhead"][data-peer="${editor.username}"]`)).toHaveCount(1)
  // A knob the editor holds shows in the owner's mixer while they hold it, and not after.
  const knob = editorPage.getByRole('slider', { name: 'groove Volume' })
  const box = (await knob.boundingBox())!
  await editorPage.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await editorPage.mouse.down()
  await editorPage.mouse.move(box.x - 30, box.y + box.height / 2, { steps: 5 })
  const held = page.locator(`[data-touched-by="${editor.username}"]`)
  await expect(held).toHaveCount(1)
  await expect(page.getByRole('slider', { name: 'groove Volume' })).toHaveAttribute(
    'aria-valuetext',
    new RegExp(`${editor.username} is moving it$`),
  )
  await editorPage.mouse.up()
  await expect(held).toHaveCount(0)

  // The editor adds a track: it appears in the owner's mixer.
  await addAudioTrack(editorPage, 'bass', [tone(110, 1, 48000)])
  await expect(page.getByRole('listitem', { name: 'bass', exact: true })).toBeVisible()

  // Shared audio: each studio fetched the other's audio from Storage, sample for sample.
  const samples = (p: Page, name: string) =>
    p.evaluate((n) => {
      const a = window.__cubeStudio?.trackAudio(n)
      return a ? { rate: a.sampleRate, frames: a.channels[0]!.length, sum: a.channels[0]!.reduce((x, v) => x + Math.abs(v), 0) } : null
    }, name)
  const groove = await samples(page, 'groove')
  expect(groove?.frames).toBeGreaterThan(0)
  await expect.poll(() => samples(editorPage, 'groove'), { timeout: 15_000 }).toEqual(groove)
  await expect.poll(() => samples(page, 'bass'), { timeout: 15_000 }).toEqual(await samples(editorPage, 'bass'))
  expect((await samples(page, 'bass'))?.frames).toBeGreaterThan(0)

  // An invite link: a third creator who opens it joins as a viewer; revoked, it is gone from the list.
  await live.getByLabel('Invite link role').selectOption('viewer')
  await live.getByRole('button', { name: 'Create invite link' }).click()
  const link = await live.getByLabel('Invite link as viewer').inputValue()
  const guestPage = await (await browser.newContext()).newPage()
  await signUpByApi(guestPage, { username: `gu_${unique()}`.slice(0, 20) })
  await guestPage.goto(link)
  const guests = guestPage.getByTestId('live-session')
  await expect(guests.getByRole('status')).toHaveText('You joined “Project 1” as viewer: join it live below.')
  await expect(guests).toContainText(`Project 1 by ${owner.username}`)
  await live.getByRole('button', { name: 'Revoke' }).click()
  await expect(live.getByRole('list', { name: 'Invite links' })).toHaveCount(0)
  await guestPage.close()

  // Offline: the editor's edit waits while the connection is down and merges on return with the
  // owner's edit made meanwhile; both studios end with both edits.
  const pan = (p: Page) => p.getByRole('slider', { name: 'groove Pan' })
  const bassVolume = (p: Page) => p.getByRole('slider', { name: 'bass Volume' })
  const ownerPan = await pan(page).getAttribute('aria-valuenow')
  await editorPage.context().setOffline(true)
  await pan(editorPage).focus()
  await editorPage.keyboard.press('PageUp')
  const offlinePan = await pan(editorPage).getAttribute('aria-valuenow')
  expect(offlinePan).not.toBe(ownerPan)
  await bassVolume(page).focus()
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft')
  const ownerBass = await bassVolume(page).getAttribute('aria-valuenow')
  await page.waitForTimeout(1_500)
  await expect(pan(page), 'nothing crossed while the editor was offline').toHaveAttribute('aria-valuenow', ownerPan ?? '')
  await expect(bassVolume(editorPage)).not.toHaveAttribute('aria-valuenow', ownerBass ?? '')
  await editorPage.context().setOffline(false)
  await expect(pan(page)).toHaveAttribute('aria-valuenow', offlinePan ?? '', { timeout: 20_000 })
  await expect(bassVolume(editorPage)).toHaveAttribute('aria-valuenow', ownerBass ?? '', { timeout: 20_000 })

  // Leaving is seen by the owner at once.
  await theirs.getByRole('button', { name: 'Leave' }).click()
  await expect(live.getByRole('list', { name: 'In the project now' })).toHaveCount(0)
})
