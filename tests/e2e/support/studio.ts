import { type Locator, type Page } from '@playwright/test'
import { expect } from './test.ts'
import { toast } from './auth.ts'
import { makeWav } from '../fixtures/audio.ts'

/** Shared steps of the studio journeys: open the mixer, add a track of audio, save, go live, invite. */

export async function openMixer(page: Page) {
  await page.goto('/app/studio')
  await expect(page.getByRole('heading', { name: 'Mixer Tracks' })).toBeVisible()
}

/** Uploads `channels` as `<name>.wav` and waits for its track to be listed. */
export async function addAudioTrack(page: Page, name: string, channels: Float32Array[], sampleRate = 48000) {
  await page
    .getByTestId('upload-input')
    .setInputFiles({ name: `${name}.wav`, mimeType: 'audio/wav', buffer: makeWav(channels, sampleRate) })
  await expect(page.getByRole('listitem', { name, exact: true })).toBeVisible()
}

export async function saveProject(page: Page) {
  await page.getByRole('button', { name: 'Save Project' }).click()
  await expect(toast(page, 'Project saved')).toBeVisible()
}

/** The owner takes the open project live; returns the live-session panel. */
export async function goLive(page: Page): Promise<Locator> {
  const live = page.getByTestId('live-session')
  await live.getByRole('button', { name: /^Go live with/ }).click()
  await expect(live.getByRole('status')).toContainText('as owner.')
  return live
}

export async function inviteByUsername(live: Locator, username: string, role: 'editor' | 'viewer') {
  await live.getByLabel('Username to invite').fill(username)
  await live.getByLabel('Role', { exact: true }).selectOption(role)
  await live.getByRole('button', { name: 'Invite', exact: true }).click()
  await expect(live.getByRole('list', { name: 'Collaborators' })).toContainText(`${username} (${role})`)
}
