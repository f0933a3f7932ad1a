/**
 * The install icons of the PWA (public/icons/*.png), drawn by Chromium from public/favicon.svg so
 * that they stay the same mark: "any" icons at 192 and 512 px, and a maskable 512 px one whose mark
 * sits inside the safe zone (the middle 80 %) on the page colour, as launchers crop it to a circle.
 *
 * Run after changing the mark: npx tsx scripts/app-icons.ts
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { launchOptions } from '../tests/e2e/support/browser.ts'

const ROOT = join(import.meta.dirname, '..')
const svg = readFileSync(join(ROOT, 'public/favicon.svg'), 'utf8')
const BACKGROUND = '#05010f'

const browser = await chromium.launch(launchOptions())
try {
  const page = await browser.newPage()
  const draw = async (size: number, inset: number, file: string) => {
    await page.setViewportSize({ width: size, height: size })
    const mark = size - 2 * inset
    await page.setContent(
      `<body style="margin:0;background:${BACKGROUND}"><div style="padding:${inset}px;width:${mark}px;height:${mark}px">` +
        svg.replace('<svg ', `<svg width="${mark}" height="${mark}" `) +
        '</div></body>',
    )
    await page.screenshot({ path: join(ROOT, 'public/icons', file), omitBackground: false })
  }
  await draw(192, 0, 'icon-192.png')
  await draw(512, 0, 'icon-512.png')
  await draw(512, 64, 'icon-maskable-512.png')
} finally {
  await browser.close()
}
