import { expect, test, type Browser, type Page } from '@playwright/test'
import { toast } from './support/auth.ts'
import { signUpByApi } from './support/session.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'

// Governance decided by the server: a proposal burns 100 CUBE, a vote weighs floor(0.8 x balance)
// as computed at vote time, tallies update live for everyone viewing, and history shows the vote.

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`

async function member(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage()
  await signUpByApi(page, { prefix: 'g' })
  await page.goto('/app/governance')
  await expect(page.getByTestId('gov-balance')).toHaveText('100 CUBE')
  return page
}

test('create a proposal (100 CUBE burned), another member votes with 80 power, tallies live, history', async ({ browser }) => {
  const [author, voter] = await Promise.all([member(browser), member(browser)])
  const title = `Cheaper remixes ${unique()}`

  await test.step('balance, voting power = floor(0.8 x balance), the delegate panel', async () => {
    await expect(author.getByRole('heading', { level: 1, name: 'Governance' })).toBeVisible()
    await expect(author.getByTestId('gov-voting-power')).toHaveText('80')
    await expect(author.getByTestId('current-delegation')).toContainText('None')
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

  await test.step('another member sees it live and votes For with 80; the author sees the tally within 2 s', async () => {
    const card = voter.getByTestId('proposal').filter({ hasText: title })
    await expect(card).toBeVisible({ timeout: 2000 })
    await card.getByRole('button', { name: 'For' }).click()
    await expect(toast(voter, 'Vote submitted')).toContainText('80 voting power for')
    await expect(card.getByTestId('your-vote')).toHaveText('You voted For')
    await expect(card.getByRole('button', { name: 'For' })).toHaveCount(0)
    await expect(author.getByTestId('proposal').filter({ hasText: title }).getByTestId('votes-for')).toHaveText('80', { timeout: 2000 })
    await expect(voter.getByTestId('gov-participation')).toHaveText(/^1\/\d+$/)
  })

  await test.step("at 0 CUBE a vote is refused; the voter's history shows the vote In Progress", async () => {
    await author.getByTestId('proposal').filter({ hasText: title }).getByRole('button', { name: 'Against' }).click()
    await expect(toast(author, 'Insufficient voting power')).toContainText('You need CUBE tokens to participate in governance')
    await expect(author.getByTestId('proposal').filter({ hasText: title }).getByTestId('votes-against')).toHaveText('0')
    await voter.getByRole('tab', { name: 'Your Voting History' }).click()
    const row = voter.getByTestId('vote-history').getByRole('row').filter({ hasText: title })
    await expect(row).toContainText('For')
    await expect(row).toContainText('80')
    await expect(row.getByTestId('vote-result')).toHaveText('In Progress')
    await expectNoSeriousA11yViolations(voter)
  })
})
