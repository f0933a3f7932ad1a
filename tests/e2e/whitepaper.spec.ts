import { type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import { WHITEPAPER_SECTIONS } from '../../src/features/whitepaper/whitepaper-content.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'

const sectionHeading = (page: Page) => page.locator('#wp-section-heading')

test('/app/whitepaper redirects to the executive summary, replacing the history entry', async ({ page }) => {
  await page.goto('/app/home')
  await page.goto('/app/whitepaper')
  await expect(page).toHaveURL(/\/app\/whitepaper\/executive_summary$/)
  await expect(sectionHeading(page)).toHaveText('执行摘要')
  await expect(page.getByRole('heading', { level: 1, name: /Whitepaper/ })).toBeVisible()
  await expect(page).toHaveTitle(/执行摘要 · 白皮书/)
  // Back skips the bare /app/whitepaper entry (it was replaced) and lands on the page before it.
  await page.goBack()
  await expect(page).toHaveURL(/\/app\/home$/)
})

test('an unknown section shows the executive summary', async ({ page }) => {
  await page.goto('/app/whitepaper/no_such_section')
  await expect(sectionHeading(page)).toHaveText('执行摘要')
  await expect(page.getByRole('button', { name: '项目概述' })).toHaveAttribute('aria-expanded', 'true')
  await expect(page.getByRole('region', { name: '项目概述' })).toContainText('Listen-to-Earn')
  await expect(page.getByRole('button', { name: /Previous Section/ })).toBeDisabled()
})

test('desktop: the sticky table of contents filters by title and links to sections', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/app/whitepaper/executive_summary')
  const toc = page.getByRole('navigation', { name: 'Whitepaper contents' })
  await expect(toc.getByRole('link')).toHaveCount(9)
  await expect(page.getByTestId('whitepaper-toc')).toHaveCSS('position', 'sticky')
  const search = toc.getByRole('searchbox', { name: /Search sections/ })
  await search.fill('代币')
  await expect(toc.getByRole('link')).toHaveText([/代币经济/])
  await search.fill('risk')
  await expect(toc.getByRole('link')).toHaveText([/风险管理/])
  await search.fill('没有这个')
  await expect(toc.getByRole('link')).toHaveCount(0)
  await expect(toc.getByText('No matching sections')).toBeVisible()
  await search.fill('')
  await expect(toc.getByRole('link')).toHaveCount(9)
  await toc.getByRole('link', { name: /社区治理/ }).click()
  await expect(page).toHaveURL(/\/app\/whitepaper\/governance$/)
  await expect(sectionHeading(page)).toHaveText('社区治理')
  await expect(toc.getByRole('link', { name: /社区治理/ })).toHaveAttribute('aria-current', 'page')
})

test('each section is an accordion: one item open at a time, and the open one collapses', async ({ page }) => {
  await page.goto('/app/whitepaper/token_economy')
  const first = page.getByRole('button', { name: '供应总量与分配' })
  const third = page.getByRole('button', { name: 'NFT 首发分账与手续费销毁' })
  const firstPanel = page.getByRole('region', { name: '供应总量与分配' })
  const thirdPanel = page.getByRole('region', { name: 'NFT 首发分账与手续费销毁' })
  await expect(first).toHaveAttribute('aria-expanded', 'true')
  await expect(firstPanel).toContainText('10 亿枚')
  await third.click()
  await expect(third).toHaveAttribute('aria-expanded', 'true')
  await expect(thirdPanel).toContainText('85% / 5% / 10%')
  await expect(first).toHaveAttribute('aria-expanded', 'false')
  await expect(firstPanel).toBeHidden()
  const article = page.locator('article')
  await expect(article.getByRole('button', { expanded: true })).toHaveCount(1)
  await third.click()
  await expect(third).toHaveAttribute('aria-expanded', 'false')
  await expect(thirdPanel).toBeHidden()
  await expect(article.getByRole('button', { expanded: true })).toHaveCount(0)
})

test('Previous / Next Section navigate to the neighbours and scroll to the top', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 420 })
  await page.goto('/app/whitepaper/executive_summary')
  const next = page.getByRole('button', { name: /Next Section/ })
  await next.scrollIntoViewIfNeeded()
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
  await next.click()
  await expect(page).toHaveURL(/\/app\/whitepaper\/industry_pain_points$/)
  await expect(sectionHeading(page)).toHaveText('行业痛点')
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)

  const previous = page.getByRole('button', { name: /Previous Section/ })
  await previous.scrollIntoViewIfNeeded()
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
  await previous.click()
  await expect(page).toHaveURL(/\/app\/whitepaper\/executive_summary$/)
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)

  await page.goto('/app/whitepaper/conclusion')
  await expect(sectionHeading(page)).toHaveText('结语')
  await expect(page.getByRole('button', { name: /Next Section/ })).toBeDisabled()
  await expect(page.getByRole('button', { name: /Previous Section/ })).toBeEnabled()
})

test('mobile (375 px): the contents open in a right-hand drawer that closes by button, Escape and navigation', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 })
  await page.goto('/app/whitepaper/executive_summary')
  await expect(page.getByTestId('whitepaper-toc')).toHaveCount(0)
  const open = page.getByRole('button', { name: /Contents/ })
  const drawer = page.getByRole('dialog', { name: 'Whitepaper table of contents' })
  await expect(drawer).toBeHidden()

  await open.click()
  await expect(drawer).toBeVisible()
  await expect(open).toHaveAttribute('aria-expanded', 'true')
  // Slid in from the right: once the transition settles its right edge meets the viewport's.
  await expect
    .poll(async () => {
      const box = await drawer.boundingBox()
      return box ? Math.round(box.x + box.width) : -1
    })
    .toBe(375)
  await expect(page.getByRole('button', { name: 'Close table of contents' })).toBeFocused()
  await page.getByRole('button', { name: 'Close table of contents' }).click()
  await expect(drawer).toBeHidden()
  await expect(open).toBeFocused()

  await open.click()
  await expect(drawer).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(drawer).toBeHidden()

  await open.click()
  await drawer.getByRole('searchbox').fill('路线')
  await drawer.getByRole('link', { name: /发展路线图/ }).click()
  await expect(page).toHaveURL(/\/app\/whitepaper\/roadmap$/)
  await expect(drawer).toBeHidden()
  await expect(sectionHeading(page)).toHaveText('发展路线图')
})

test('whitepaper has no serious accessibility violations (desktop and mobile drawer)', async ({ page }) => {
  await page.goto('/app/whitepaper/governance')
  await expect(sectionHeading(page)).toHaveText('社区治理')
  await expectNoSeriousA11yViolations(page)
  await page.setViewportSize({ width: 375, height: 740 })
  await page.goto('/app/whitepaper/team')
  await page.getByRole('button', { name: /Contents/ }).click()
  await expect(page.getByRole('dialog', { name: 'Whitepaper table of contents' })).toBeVisible()
  await expectNoSeriousA11yViolations(page)
})

// The whitepaper ships Noto Sans SC itself (this machine's Chromium may have no CJK
// font at all, and then every character would be the same empty box).
const NOTO = /noto-sans-sc-.*\.woff2$/

test('the whitepaper loads Noto Sans SC from our own origin, and its glyphs have ink and differ from each other', async ({
  page,
  baseURL,
}) => {
  const served: { url: string; status: number }[] = []
  page.on('response', (r) => {
    if (NOTO.test(new URL(r.url()).pathname)) served.push({ url: r.url(), status: r.status() })
  })
  await page.goto('/app/whitepaper/executive_summary')
  await expect(sectionHeading(page)).toHaveText('执行摘要')
  await page.evaluate(() => document.fonts.ready.then(() => undefined))

  // The page's own text made the browser fetch subsets: no explicit load happened yet.
  const loadedByPage = await page.evaluate(
    () => [...document.fonts].filter((f) => f.family.replace(/["']/g, '') === 'Noto Sans SC' && f.status === 'loaded').length,
  )
  expect(loadedByPage).toBeGreaterThan(0)
  expect(served.length).toBeGreaterThan(0)
  for (const r of served) {
    expect(new URL(r.url).origin).toBe(new URL(baseURL!).origin)
    expect(r.status).toBe(200)
  }
  // check() is true only once every face covering these characters is loaded.
  await expect.poll(() => page.evaluate(() => document.fonts.check('16px "Noto Sans SC"', '白皮书'))).toBe(true)

  // Ink: with no CJK font, '白' and '书' are the same notdef box; with the web font they are two
  // different glyphs. Each character is drawn alone and compared as a black/white mask.
  const result = await page.evaluate(async () => {
    await document.fonts.load('64px "Noto Sans SC"', '白书')
    const mask = (font: string, text: string) => {
      const canvas = document.createElement('canvas')
      canvas.width = 96
      canvas.height = 96
      const ctx = canvas.getContext('2d', { willReadFrequently: true })!
      ctx.fillStyle = '#fff'
      ctx.fillRect(0, 0, 96, 96)
      ctx.fillStyle = '#000'
      ctx.font = font
      ctx.textBaseline = 'top'
      ctx.fillText(text, 16, 16)
      const { data } = ctx.getImageData(0, 0, 96, 96)
      let bits = ''
      let ink = 0
      for (let i = 0; i < data.length; i += 4) {
        const on = data[i]! < 128
        bits += on ? '1' : '0'
        if (on) ink++
      }
      return { bits, ink }
    }
    // A family that does not exist: the browser's own fallback, CJK or not.
    const fallbackA = mask('64px "No Such Font CUBE", sans-serif', '白')
    const fallbackB = mask('64px "No Such Font CUBE", sans-serif', '书')
    const notoA = mask('64px "Noto Sans SC"', '白')
    const notoB = mask('64px "Noto Sans SC"', '书')
    return {
      fallbackIdentical: fallbackA.bits === fallbackB.bits,
      notoDiffer: notoA.bits !== notoB.bits,
      notoInk: [notoA.ink, notoB.ink],
      notoDiffersFromFallback: notoA.bits !== fallbackA.bits,
    }
  })
  test.info().annotations.push({
    type: 'system CJK font',
    description: result.fallbackIdentical ? 'none (fallback draws identical boxes)' : 'present (fallback draws real glyphs)',
  })
  expect(result.notoInk[0]).toBeGreaterThan(50)
  expect(result.notoInk[1]).toBeGreaterThan(50)
  expect(result.notoDiffer).toBe(true)
  // Without a system CJK font the fallback is tofu, so the web font must be what draws the glyph.
  if (result.fallbackIdentical) expect(result.notoDiffersFromFallback).toBe(true)
})

test('the landing page requests no CJK font', async ({ page }) => {
  const fonts: string[] = []
  page.on('request', (r) => {
    if (r.resourceType() === 'font' || /noto-sans-sc/i.test(r.url())) fonts.push(r.url())
  })
  await page.goto('/')
  await page.waitForLoadState('networkidle')
  expect(fonts.filter((u) => /noto-sans-sc/i.test(u))).toEqual([])
})

/** The share of pixels that differ clearly (any channel by more than 64) between two PNGs of one size. */
async function changedShare(page: Page, a: Buffer, b: Buffer): Promise<number> {
  return page.evaluate(
    async ([x, y]) => {
      const pixels = async (b64: string) => {
        const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob())
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height)
        const g = canvas.getContext('2d')!
        g.drawImage(bitmap, 0, 0)
        return g.getImageData(0, 0, bitmap.width, bitmap.height).data
      }
      const [p, q] = [await pixels(x), await pixels(y)]
      if (p.length !== q.length) return 1
      let changed = 0
      for (let i = 0; i < p.length; i += 4)
        if (Math.max(Math.abs(p[i]! - q[i]!), Math.abs(p[i + 1]! - q[i + 1]!), Math.abs(p[i + 2]! - q[i + 2]!)) > 64) changed++
      return changed / (p.length / 4)
    },
    [a.toString('base64'), b.toString('base64')] as const,
  )
}

// On first load the default section's heading, first item, search placeholder
// and Next were empty boxes although the font had arrived (Chrome kept what it shaped while the
// subsets were loading). For every section, opened fresh: once the fonts are in, what is painted
// is what the page paints after shaping its text again (an invisibly small letter-spacing change).
const SECTION_KEYS = WHITEPAPER_SECTIONS.map((section) => section.key)
// Two halves, so that each stays well inside its time on two loaded cores (five fresh contexts each).
for (const [half, sizes] of [
  ['first', SECTION_KEYS.slice(0, 5).map((key) => ({ key, width: 1280, height: 800 }))],
  [
    'second',
    [...SECTION_KEYS.slice(5).map((key) => ({ key, width: 1280, height: 800 })), { key: 'executive_summary', width: 375, height: 812 }],
  ],
] as const) {
  test(`every section shows its glyphs on first load (${half} half of the sections; the default one at 375 px too)`, async ({
    browser,
  }) => {
    // Five fresh contexts (a first load each, nothing cached): about 30 s alone, over 60 s beside
    // the other half on two loaded cores.
    test.setTimeout(90_000)
    for (const { key, width, height } of sizes) {
      const page = await browser.newPage({ viewport: { width, height } })
      await page.goto(`/app/whitepaper/${key}`)
      await expect(sectionHeading(page)).toBeVisible()
      await page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => setTimeout(r, 500))))
      // The texts that stayed boxes: the heading, the open item's title, the active contents entry,
      // the search placeholder and Next (the Contents button at 375 px).
      const texts = [
        sectionHeading(page),
        page.locator('[aria-expanded="true"] h3, button[aria-expanded="true"]').first(),
        page
          .getByRole('searchbox')
          .or(page.getByRole('button', { name: /Contents/ }))
          .first(),
        page
          .getByRole('button', { name: /Next/ })
          .or(page.getByRole('link', { name: /Next/ }))
          .first(),
      ]
      const shot = async () => Promise.all(texts.map((t) => t.screenshot({ animations: 'disabled' })))
      const first = await shot()
      await page.evaluate(() => {
        document.querySelector<HTMLElement>('.whitepaper-cjk')!.style.letterSpacing = '0.00001px'
        return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
      })
      const reshaped = await shot()
      // Anti-aliasing may move a few edge pixels; a box instead of a glyph changes many.
      for (const [i, image] of first.entries())
        expect(await changedShare(page, image, reshaped[i]!), `${key} at ${width} px: text ${i} was boxes until shaped again`).toBeLessThan(
          0.01,
        )
      await page.close()
    }
  })
}
