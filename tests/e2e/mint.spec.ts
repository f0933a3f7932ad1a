import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Wallet } from 'ethers'
import { type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import { anonKeyFor, E2E_PORT } from './support/anon-key.ts'
import { toast } from './support/auth.ts'
import { signUpByApi } from './support/session.ts'
import { injectWallet } from './support/eip1193.ts'
import { OwnServer } from './support/own-server.ts'

// Minting end to end on the embedded EVM chain that `npm start` runs in-process. The suite's server
// runs without it; this spec starts a server of its own with the chain, as `npm start` does.

const PORT = E2E_PORT + 10_002
let server: OwnServer | undefined
let anonKey = ''
test.use({ baseURL: `http://127.0.0.1:${PORT}` })
test.beforeAll(async () => {
  test.setTimeout(90_000)
  server = new OwnServer(PORT, mkdtempSync(join(tmpdir(), 'cube-mint-e2e-')), { LOCAL_DATA_RESET: '1' })
  await server.start()
  anonKey = await anonKeyFor(server.dataDir)
})
test.afterAll(async () => {
  await server?.dispose()
})

const pageBalance = (page: Page) => page.getByTestId('mint-page-balance')

test('mint on the embedded chain: 150 → 50, completed, ownerOf and tokenURI read back; other chains shown disabled', async ({ page }) => {
  const wallet = Wallet.createRandom()
  await injectWallet(page, wallet, 'ok')
  await test.step('sign up and connect the wallet (100 + 50 CUBE)', async () => {
    await signUpByApi(page, { prefix: 'm', anonKey })
    await page.goto('/app/wallet')
    await expect(page.getByTestId('wallet-basics').getByTestId('wallet-balance')).toHaveText('100 CUBE')
    await page.getByTestId('connect-browser').click()
    await expect(page.getByTestId('wallet-basics').getByTestId('wallet-balance')).toHaveText('150 CUBE')
  })
  await test.step('validation and a chain without a provider', async () => {
    await page.goto('/app/mint')
    await expect(pageBalance(page)).toHaveText('150 CUBE')
    await page.getByTestId('mint-submit').click()
    await expect(toast(page, 'Missing information')).toContainText('Please provide a name, description, and image URL.')
    await page.getByTestId('mint-image').fill('https://images.invalid/cover.png')
    await expect(toast(page, 'Image Error')).toContainText('Could not load image from URL')
    await page.getByTestId('mint-name').fill('Neon Drift Genesis')
    await page.getByTestId('mint-track').selectOption('neon-drift')
    await page.getByTestId('ai-describe').click()
    await expect(page.getByTestId('mint-description')).toHaveValue(/"Neon Drift" .* by Synthwave Collective/)
    // The two error toasts sit over the tabs at the top right, and a pointer resting on a toast
    // pauses its timer: move it away and let them go, as a user does, before clicking the tab.
    await page.mouse.move(0, 0)
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0)
    await page.getByRole('tab', { name: 'Attributes' }).click()
    await expect(page.getByTestId('ai-coming-soon')).toContainText('Coming soon')
    // Chains the server cannot mint on are shown disabled with the reason (a forced request still
    // gets "Provider for bitcoin not initialized": tests/backend/wallet-mint.test.ts).
    await expect(page.getByTestId('mint-chain').locator('option[value="bitcoin"]')).toBeDisabled()
    await expect(page.getByTestId('mint-chains-note')).toContainText('This server mints on Ethereum')
    await expect(pageBalance(page)).toHaveText('150 CUBE')
  })
  let hash = ''
  await test.step('mint on ethereum (the local chain): burned, completed with a 66-character hash', async () => {
    await page.getByTestId('mint-chain').selectOption('ethereum')
    await page.getByTestId('mint-royalties').fill('10')
    await page.getByTestId('mint-submit').click()
    await expect(page.getByTestId('mint-result')).toHaveAttribute('data-status', 'completed')
    await expect(pageBalance(page)).toHaveText('50 CUBE')
    await expect(page.getByTestId('mint-submit')).toBeDisabled()
    await expect(page.getByTestId('mint-recent')).toContainText('completed')
    const href = (await page.getByTestId('mint-result').getByRole('link', { name: 'View on Blockchain' }).getAttribute('href')) ?? ''
    hash = new URL(href, 'http://x').searchParams.get('tx') ?? ''
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(hash).toHaveLength(66)
  })
  await test.step('the in-app transaction page reads ownerOf / tokenURI / royaltyInfo back from the chain', async () => {
    await page.getByTestId('mint-result').getByRole('link', { name: 'View on Blockchain' }).click()
    await expect(page.getByTestId('tx-status')).toHaveText('success')
    await expect(page.getByTestId('tx-hash')).toHaveText(hash)
    await expect(page.getByTestId('tx-owner')).toHaveText(wallet.address)
    await expect(page.getByTestId('tx-royalty')).toHaveText(`1000 → ${wallet.address}`)
    const uri = (await page.getByTestId('tx-uri').textContent()) ?? ''
    const metadata = (await (await page.request.get(uri)).json()) as {
      name: string
      animation_url: string
      attributes: { trait_type: string; value: string }[]
    }
    expect(metadata.name).toBe('Neon Drift Genesis')
    expect(metadata.animation_url).toMatch(/\/audio\/samples\/neon-drift\.mp3$/)
    expect(metadata.attributes).toContainEqual({ trait_type: 'Created with', value: 'CUBE Music' })
    const right = page.getByTestId('wallet-tabs')
    await right.getByRole('tab', { name: 'NFTs' }).click()
    await expect(right.getByTestId('nft-count')).toHaveText('(1)')
    // nfts.royalties: the reference's percent, as entered (the chain's ERC-2981 figure above is basis points).
    await right.getByRole('button', { name: /Neon Drift Genesis/ }).click()
    await expect(right.getByTestId('nft-royalties')).toHaveText('10 %')
  })
})
