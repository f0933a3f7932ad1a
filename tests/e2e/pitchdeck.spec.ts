import { type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'

const counter = (page: Page) => page.getByTestId('slide-counter')
const slideTitle = (page: Page) => page.locator('#deck-slide-title')

test('previous/next buttons page through ten slides and are disabled at the ends', async ({ page }) => {
  await page.goto('/pitchdeck')
  await expect(page).toHaveTitle(/Pitch Deck/)
  const prev = page.getByRole('button', { name: 'Previous' })
  const next = page.getByRole('button', { name: 'Next' })
  await expect(counter(page)).toHaveText('1 / 10')
  await expect(prev).toBeDisabled()
  const titles = [
    'The Problem',
    'Our Solution',
    'Market Opportunity',
    'Product Features',
    'Business Model',
    'Tokenomics',
    'Technology',
    'Roadmap',
    'Join the Revolution',
  ]
  for (const [i, title] of titles.entries()) {
    await next.click()
    await expect(counter(page)).toHaveText(`${i + 2} / 10`)
    await expect(slideTitle(page)).toHaveText(title)
  }
  await expect(next).toBeDisabled()
  await expect(prev).toBeEnabled()
  await prev.click()
  await expect(counter(page)).toHaveText('9 / 10')
  await expect(slideTitle(page)).toHaveText('Roadmap')
  for (const q of ['Q1 2024', 'Q2 2024', 'Q3 2024', 'Q4 2024']) await expect(page.getByText(q, { exact: true })).toBeVisible()
})

test('dots jump to a slide and arrow keys move, stopping at the ends', async ({ page }) => {
  await page.goto('/pitchdeck')
  const dots = page.getByRole('list', { name: 'Slides' }).getByRole('button')
  await expect(dots).toHaveCount(10)
  await page.getByRole('button', { name: 'Go to slide 6', exact: true }).click()
  await expect(counter(page)).toHaveText('6 / 10')
  await expect(slideTitle(page)).toHaveText('Business Model')
  await expect(page.getByRole('button', { name: 'Go to slide 6', exact: true })).toHaveAttribute('aria-current', 'step')
  for (const fee of ['5%', '2.5%', '0.5%', '$9.99/month', '$19.99']) await expect(page.getByText(fee, { exact: true })).toBeVisible()

  await page.keyboard.press('ArrowRight')
  await expect(counter(page)).toHaveText('7 / 10')
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  await expect(counter(page)).toHaveText('5 / 10')
  await expect(slideTitle(page)).toHaveText('Product Features')
  for (const f of ['AI Music Generator', 'Live Mixer', 'NFT Minting', 'Listen-to-Earn', 'Social Sharing', 'Remix Studio']) {
    await expect(page.getByRole('heading', { name: f, exact: true })).toBeVisible()
  }

  await page.getByRole('button', { name: 'Go to slide 1', exact: true }).click()
  await page.keyboard.press('ArrowLeft')
  await expect(counter(page)).toHaveText('1 / 10')
  await page.getByRole('button', { name: 'Go to slide 10', exact: true }).click()
  await page.keyboard.press('ArrowRight')
  await expect(counter(page)).toHaveText('10 / 10')
})

test('tokenomics is an SVG donut with the three shares the whitepaper states, labelled and with a legend', async ({ page }) => {
  await page.goto('/pitchdeck')
  await page.getByRole('button', { name: 'Go to slide 7', exact: true }).click()
  const chart = page.getByRole('img', { name: 'Token distribution: Community 60%, Team 15%, Reserve & liquidity 25%' })
  await expect(chart).toBeVisible()
  await expect(chart.locator('path')).toHaveCount(3)
  expect(await chart.locator('path').evaluateAll((ps) => ps.map((p) => p.getAttribute('data-share')))).toEqual(['60', '15', '25'])
  // Drawn slices really differ in size: the 60% slice's rendered box is larger than the 15% one's.
  const areas = await chart.locator('path').evaluateAll((ps) =>
    ps.map((p) => {
      const b = (p as SVGPathElement).getBBox()
      return b.width * b.height
    }),
  )
  expect(areas[0]!).toBeGreaterThan(areas[1]!)
  await expect(chart.locator('text')).toContainText(['60%', '15%', '25%'])
  const legend = page.getByRole('list', { name: 'Token distribution legend' })
  await expect(legend.getByRole('listitem')).toHaveText([/Community 60%/, /Team 15%/, /Reserve & liquidity 25%/])
  await expect(page.getByText('50 CUBE', { exact: true })).toBeVisible()
  await expect(page.getByText('25 CUBE per week', { exact: true })).toBeVisible()
})

test('final slide buttons lead somewhere real', async ({ page }) => {
  await page.goto('/pitchdeck')
  await page.getByRole('button', { name: 'Go to slide 10', exact: true }).click()
  await expect(slideTitle(page)).toHaveText('Join the Revolution')
  await expect(page.getByRole('link', { name: 'Start Creating' })).toHaveAttribute('href', '/app/create')
  await expect(page.getByRole('link', { name: 'Launch Platform' })).toHaveAttribute('href', '/app/home')
  await expect(page.getByRole('link', { name: 'View Demo' })).toHaveAttribute('href', '/app/listen')
  await expect(page.getByRole('link', { name: 'Get in Touch' })).toHaveAttribute('href', /^mailto:hello@cube\.music/)

  await page.getByRole('button', { name: 'Invest Now' }).click()
  await expect(counter(page)).toHaveText('6 / 10')
  await expect(slideTitle(page)).toHaveText('Business Model')
  await expect(slideTitle(page)).toBeFocused()

  await page.getByRole('button', { name: 'Go to slide 10', exact: true }).click()
  await page.getByRole('link', { name: 'View Demo' }).click()
  await expect(page).toHaveURL(/\/app\/listen$/)
  await page.goBack()
  await page.getByRole('button', { name: 'Go to slide 10', exact: true }).click()
  await page.getByRole('link', { name: 'Start Creating' }).click()
  await expect(page).toHaveURL(/\/app\/create$/)
})

test('pitch deck has no serious accessibility violations', async ({ page }) => {
  await page.goto('/pitchdeck')
  await expectNoSeriousA11yViolations(page)
  await page.getByRole('button', { name: 'Go to slide 7', exact: true }).click()
  await expectNoSeriousA11yViolations(page)
  await page.getByRole('button', { name: 'Go to slide 10', exact: true }).click()
  await expectNoSeriousA11yViolations(page)
})
