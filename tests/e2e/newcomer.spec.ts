import { expect, test } from './support/test.ts'
import { register, toast } from './support/auth.ts'
import { freshIdentity } from './support/session.ts'

// What a new user without a browser wallet hit, as one journey through the
// real server. A non-Latin name is accepted at sign-up and then also in Settings (the old rules
// disagreed, so such a user could not even save a bio); Social Login connects the account as the
// wallet (it did nothing), so Rewards and the NFT tab open and survive a reload; the wallet's NFT
// hint leads to the minting page, which exists.

test('a newcomer without MetaMask: a Cyrillic name, a bio, Social Login to the wallet and its tabs', async ({ page }) => {
  const { email } = freshIdentity('newcomer')
  const name = `Ахмед_${Date.now().toString(36)}`
  await page.goto('/app/home')
  await test.step('register with a Cyrillic name: kept whole, no silent change', async () => {
    await register(page, name, email, 'newcomer-pass-1')
    await expect(page.getByTestId('account-email')).toBeVisible()
  })
  await test.step('Settings takes the same name and saves a bio', async () => {
    await page.goto('/app/settings')
    await expect(page.getByLabel('Username')).toHaveValue(name)
    await page.getByLabel('Bio').fill('Слушаю ночью.')
    await page.getByRole('button', { name: 'Save profile' }).click()
    await expect(toast(page, 'Profile saved')).toBeVisible()
  })
  const panel = page.getByTestId('wallet-panel')
  await test.step('Social Login connects straight from the page: an address of the account, +50 once', async () => {
    await page.goto('/app/wallet')
    await panel.getByTestId('connect-social').click()
    await expect(toast(page, 'Wallet Connected')).toContainText('50 CUBE welcome tokens')
    await expect(panel.getByTestId('wallet-address')).toHaveText(/^0x[0-9a-fA-F]{4}\.\.\.[0-9a-fA-F]{4}$/)
    await expect(panel.getByTestId('account-wallet-note')).toBeVisible()
    // Only what applies to the account's wallet: its one chain, no ETH | BTC | SOL switch.
    await expect(panel.getByTestId('account-wallet-chain')).toContainText('Ethereum-compatible')
    await expect(panel.getByTestId('chain-select')).toHaveCount(0)
    await expect(page.getByTestId('wallet-basics').getByTestId('wallet-balance')).toHaveText('150 CUBE')
  })
  await test.step('Rewards and the NFT tab open, after a reload too; the NFT hint links to minting', async () => {
    await page.reload()
    await expect(panel.getByTestId('account-wallet-note')).toBeVisible()
    const tabs = page.getByTestId('wallet-tabs')
    await tabs.getByRole('tab', { name: 'Rewards' }).click()
    await expect(tabs.getByTestId('claim')).toBeVisible()
    await tabs.getByRole('tab', { name: 'NFTs' }).click()
    await tabs.getByRole('link', { name: 'NFT Minting Studio' }).click()
    await expect(page).toHaveURL(/\/app\/mint$/)
    await expect(page.getByRole('heading', { level: 1, name: 'NFT Minting Studio' })).toBeVisible()
  })
  // The history said "song:pub-…:twitter" and UUIDs, and the same figure had
  // different names and values on Listen and in the Wallet.
  await test.step('the history reads as words; Listen and the Wallet name and count the same figures alike', async () => {
    await page.goto('/app/wallet')
    const history = page.getByTestId('wallet-basics').getByTestId('token-activity-item')
    await expect(history.first()).toBeVisible()
    for (const text of await history.allInnerTexts()) expect(text).not.toMatch(/pub-|[0-9a-f]{8}-[0-9a-f]{4}|song:|user:/)
    await expect(history.filter({ hasText: 'Wallet welcome bonus' })).toHaveCount(1)
    const basics = page.getByTestId('wallet-basics')
    await expect(basics.getByText('Rewarded listens today')).toBeVisible()
    await expect(basics.getByText('Listening CUBE today')).toBeVisible()
    const walletListens = (await basics.getByTestId('wallet-tracks-today').innerText()).trim()
    await page.goto('/app/listen')
    // The reference's label, whose hint names the Wallet's figure.
    await expect(page.getByText('Tracks Listened')).toBeVisible()
    await expect(page.getByTestId('stat-listened-hint')).toContainText('Rewarded listens today')
    await expect(page.getByTestId('stat-listened')).toContainText(walletListens)
  })
})
