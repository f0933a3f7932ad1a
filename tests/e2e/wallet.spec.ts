import { Wallet } from 'ethers'
import { type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import { LOCAL_ANON_KEY } from './support/anon-key.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { toast } from './support/auth.ts'
import { signUpByApi } from './support/session.ts'
import { accessToken, injectWallet } from './support/eip1193.ts'

// Wallet connect end to end: a real ethers Wallet behind an injected EIP-1193 provider signs the
// SIWE message; the server verifies it, links the address and pays the welcome once.

const balance = (page: Page) => page.getByTestId('wallet-basics').getByTestId('wallet-balance')

async function signUp(page: Page) {
  await signUpByApi(page, { prefix: 'w' })
  await page.goto('/app/wallet')
  await expect(balance(page)).toHaveText('100 CUBE')
}

test('connect with a browser wallet: no provider, rejection, then a verified link with +50 once; tabs axe-clean', async ({
  page,
  browser,
}) => {
  // Four accessibility scans and two accounts: about a minute on the 2-core machine.
  test.setTimeout(90_000)
  const wallet = Wallet.createRandom()
  const provider = await injectWallet(page, wallet, 'none')
  await test.step('visitor: sample figures marked as a preview, sign-in first', async () => {
    await page.goto('/app/wallet')
    await expect(page.getByRole('heading', { level: 1, name: 'Crypto Wallet' })).toBeVisible()
    await expect(page.getByText('Connect your wallet and manage your tokens')).toBeVisible()
    await expect(page.getByTestId('compact-player')).toBeVisible()
    await page.getByTestId('wallet-tabs').getByRole('tab', { name: 'Rewards' }).click()
    await expect(page.getByTestId('cube-rewards')).toHaveAttribute('data-preview', 'true')
    await expect(page.getByText('Preview: sample figures.')).toBeVisible()
  })
  await signUp(page)
  const panel = page.getByTestId('wallet-panel')
  await test.step("no provider → 'MetaMask Not Found'; rejection → 'Connection Failed'", async () => {
    await panel.getByTestId('connect-browser').click()
    await expect(toast(page, 'MetaMask Not Found')).toContainText('Please install MetaMask to connect your wallet.')
    await provider.setMode('reject')
    await panel.getByTestId('connect-browser').click()
    await expect(toast(page, 'Connection Failed')).toContainText('Failed to connect to your wallet. Please try again.')
    await expect(balance(page)).toHaveText('100 CUBE')
  })
  await test.step('approve: signed, verified by the server, address linked, +50 CUBE', async () => {
    await provider.setMode('ok')
    await panel.getByTestId('connect-browser').click()
    await expect(toast(page, 'Wallet Connected')).toContainText('50 CUBE welcome tokens')
    await expect(balance(page)).toHaveText('150 CUBE')
    await expect(panel.getByTestId('wallet-address')).toHaveText(`${wallet.address.slice(0, 6)}...${wallet.address.slice(-4)}`)
    const token = await accessToken(page)
    const links = await page.request.get('/rest/v1/wallet_links?select=address', {
      headers: { apikey: LOCAL_ANON_KEY, Authorization: `Bearer ${token}` },
    })
    expect(await links.json()).toEqual([{ address: wallet.address }])
    const state = await page.evaluate(() => JSON.parse(localStorage.getItem('walletState') ?? '{}') as Record<string, unknown>)
    expect(state).toMatchObject({ isConnected: true, selectedChain: 'ETH' })
  })
  await test.step('reload: restored from the server; disconnect and reconnect: no second bonus', async () => {
    await page.reload()
    // The injected provider starts each page load in its initial mode ('none').
    await provider.setMode('ok')
    await expect(panel.getByTestId('wallet-address')).toBeVisible()
    await panel.getByTestId('chain-select').selectOption('SOL')
    await panel.getByTestId('disconnect').click()
    await expect(panel.getByTestId('connect-browser')).toBeVisible()
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('walletState') ?? '{}') as Record<string, unknown>)).toMatchObject({
      isConnected: false,
      selectedChain: 'SOL',
    })
    await panel.getByTestId('connect-browser').click()
    await expect(toast(page, /Wallet Connected|Connection Failed|MetaMask/)).toContainText('Your wallet is linked to your account.')
    await expect(balance(page)).toHaveText('150 CUBE')
  })
  await test.step('tabs: rewards (chart from the ledger), NFTs, activity; axe-clean', async () => {
    // One tab bar for the page: the pot's claim and the ledger's figures share the Rewards tab.
    const tabs = page.getByTestId('wallet-tabs')
    await expect(page.getByRole('tablist')).toHaveCount(1)
    await tabs.getByRole('tab', { name: 'Rewards' }).click()
    await expect(tabs.getByTestId('claim')).toBeDisabled()
    await expect(tabs.getByTestId('claim')).toHaveText('No Rewards to Claim')
    await expect(tabs.getByTestId('cube-rewards')).toHaveAttribute('data-preview', 'false')
    // Today's bar holds the 100 welcome + 50 wallet welcome from the ledger.
    await expect(tabs.getByTestId('chart-value').last()).toHaveText('150')
    await expect(tabs.getByTestId('rewards-total')).toHaveText('150')
    await expect(tabs.getByTestId('reward-sources')).toContainText('Wallet welcome 33% (50 CUBE)')
    await expectNoSeriousA11yViolations(page)
    await tabs.getByRole('tab', { name: 'NFTs' }).click()
    await expect(tabs.getByText("You don't have any NFTs yet")).toBeVisible()
    await expect(tabs.getByTestId('nft-count')).toHaveText('(0)')
    await tabs.getByRole('tab', { name: 'Activity' }).click()
    await expect(tabs.getByText('Wallet welcome bonus')).toBeVisible()
    await expectNoSeriousA11yViolations(page)
  })
  await test.step('a second account cannot link the same address', async () => {
    const other = await browser.newPage()
    await injectWallet(other, wallet, 'ok')
    await signUp(other)
    await other.getByTestId('wallet-panel').getByTestId('connect-browser').click()
    await expect(toast(other, 'Connection Failed')).toContainText('already linked to another CUBE account')
    await expect(balance(other)).toHaveText('100 CUBE')
    await other.close()
  })
})
