import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/**
 * Fails on any serious or critical accessibility violation of the page as it is now. A toast still
 * fading in or out is left to settle first: axe computes colour contrast from the current opacity,
 * and a description caught mid-fade was once reported as too faint (flaky in a clean-clone run).
 */
export async function expectNoSeriousA11yViolations(page: Page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-sonner-toast]')].every((toast) =>
      toast
        .getAnimations({ subtree: true })
        // A loading toast's spinner turns for ever: only fades and slides end.
        .every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity),
    ),
  )
  const result = await new AxeBuilder({ page }).analyze()
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([])
}
