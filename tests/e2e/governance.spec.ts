import { type Browser, type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import { toast } from './support/auth.ts'
import { signUpByApi } from './support/session.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'

// Governance decided by the server: a proposal burns 100 CUBE (the welcome bonus pays for it), voting
// power is the snapshot taken when the proposal was created, and a fresh member's welcome bonus is
// locked (no voting power until the account has listened on 3 days to 10 songs), so the
// page says so where it bites. Votes with power, live tallies and the history of a vote are covered
// with trusted accounts below the browser (tests/backend/economy-governance.test.ts, realtime.test.ts,
// useGovernance.browser.test.tsx): an e2e account cannot become trusted without days of listening.

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`

async function member(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage()
  await signUpByApi(page, { prefix: 'g' })
  await page.goto('/app/governance')
  await expect(page.getByTestId('gov-balance')).toHaveText('100 CUBE')
  return page
}

test('create a proposal (100 CUBE burned), a fresh member sees it live with no power on it, told why', async ({ browser }) => {
  const [author, voter] = await Promise.all([member(browser), member(browser)])
  const title = `Cheaper remixes ${unique()}`

  await test.step('balance, no voting power while the account is not trusted, the delegate panel', async () => {
    await expect(author.getByRole('heading', { level: 1, name: 'Governance' })).toBeVisible()
    await expect(author.getByTestId('gov-voting-power')).toHaveText('0')
    await expect(author.getByText('100 CUBE locked until your account is trusted')).toBeVisible()
    await expect(author.getByTestId('current-delegation')).toContainText('None')
    await expect(author.getByTestId('delegators')).toContainText('Nobody delegates to you.')
    await expectNoSeriousA11yViolations(author)
  })

  await test.step('an incomplete form is refused; a complete one burns 100 CUBE and lists the proposal', async () => {
    await author.getByRole('tab', { name: 'Create Proposal' }).click()
    await author.getByLabel('Title').fill(title)
    await author.getByRole('button', { name: 'Submit Proposal' }).click()
    await expect(toast(author, 'Incomplete proposal')).toContainText('Please fill out all fields')
    await author.getByLabel('Description').fill('Halve the remix burn for a month.')
    await author.getByLabel('Category').selectOption({ label: 'Tokenomics' })
    await author.getByLabel('Duration').selectOption({ label: '3 days' })
    await author.getByRole('button', { name: 'Submit Proposal' }).click()
    await expect(toast(author, 'Proposal created')).toBeVisible()
    await expect(author.getByTestId('gov-balance')).toHaveText('0 CUBE')
    await expect(author.getByTestId('gov-voting-power')).toHaveText('0')
    await expect(author.getByTestId('proposal').filter({ hasText: title })).toContainText('Tokenomics')
    await author.getByRole('tab', { name: 'Create Proposal' }).click()
    await expect(author.getByRole('button', { name: 'Submit Proposal' })).toBeDisabled()
    await expect(author.getByRole('tabpanel').getByRole('status')).toContainText('Insufficient CUBE balance')
    await author.getByRole('tab', { name: 'Active Proposals' }).click()
  })

  await test.step('another member sees it live with its quorum; their vote is refused in words, the tally stays 0', async () => {
    const card = voter.getByTestId('proposal').filter({ hasText: title })
    await expect(card).toBeVisible({ timeout: 2000 })
    await expect(card.getByTestId('proposal-quorum')).toContainText('Quorum: 10% of the')
    await expect(card.getByTestId('proposal-power')).toHaveText(
      'No voting power on this proposal: your account was not trusted yet when it was created.',
    )
    await card.getByRole('button', { name: 'For' }).click()
    await expect(toast(voter, 'Insufficient voting power')).toContainText('your account was not trusted yet')
    await expect(card.getByTestId('votes-for')).toHaveText('0')
  })

  await test.step('at 0 CUBE a vote is refused; nobody has a vote in their history', async () => {
    await author.getByTestId('proposal').filter({ hasText: title }).getByRole('button', { name: 'Against' }).click()
    await expect(toast(author, 'Insufficient voting power')).toContainText('You need CUBE tokens to participate in governance')
    await expect(author.getByTestId('proposal').filter({ hasText: title }).getByTestId('votes-against')).toHaveText('0')
    await voter.getByRole('tab', { name: 'Your Voting History' }).click()
    await expect(voter.getByText('You have not voted yet.')).toBeVisible()
    await expectNoSeriousA11yViolations(voter)
  })
})
