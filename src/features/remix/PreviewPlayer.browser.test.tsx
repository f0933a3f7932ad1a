import { afterEach, expect, it } from 'vitest'
import { page } from 'vitest/browser'
import { fakeBackend } from '../../../tests/component/fake-backend.ts'
import { renderWithBackend, settle } from '../../../tests/component/render.tsx'
import { PreviewPlayer } from './RemixPage.tsx'
import { initialRemixState, useRemixStore } from './remix-store.ts'

// The preview's status while Beat Match re-stretches the source, and the tempo it is prepared at
// once done (the e2e journey waits for that tempo; the status between can be too short to see there).

afterEach(() => useRemixStore.setState(initialRemixState()))

it('shows what is being prepared with its progress, then the tempo the preview is prepared at', async () => {
  useRemixStore.setState({ status: 'preparing', stage: 'Beat Match: stretching to 130 BPM…', progress: 0.4, preparedBpm: 120 })
  // The source picker lists the published songs too: none here.
  renderWithBackend(<PreviewPlayer />, fakeBackend({ publishing: { fetchPublishedSongs: async () => [] } }).backend)
  await settle()
  const status = page.getByTestId('remix-preparing')
  await expect.element(status).toHaveTextContent('Beat Match: stretching to 130 BPM…')
  await expect.element(page.getByRole('progressbar', { name: 'Preparing the source' })).toHaveAttribute('value', '0.4')
  await expect.element(page.getByTestId('remix-preview')).toHaveAttribute('data-prepared-bpm', '120')

  useRemixStore.setState({ status: 'ready', stage: '', progress: 1, preparedBpm: 130.0000001 })
  await expect.element(status).not.toBeInTheDocument()
  await expect.element(page.getByTestId('remix-preview')).toHaveAttribute('data-prepared-bpm', '130')
})
