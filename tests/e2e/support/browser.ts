import { existsSync } from 'node:fs'
import type { LaunchOptions } from '@playwright/test'

/**
 * Which Chromium the tests run in. Debian's headless shell first: it is the browser Playwright
 * itself prefers for headless runs, and on this 2-core machine the whole e2e tier took 503 CPU
 * seconds in it against 693 in the full browser (docs/benchmarks.md). Debian's full Chromium
 * next, then Playwright's own browser, so the suite also runs on an ordinary developer laptop
 * after `npx playwright install chromium`. CHROMIUM_PATH chooses one explicitly.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell'
const FULL_CHROMIUM = '/usr/bin/chromium'

export const BASE_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
]

export const MICROPHONE_FLAGS = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream']

export interface BrowserChoice {
  /**
   * The full browser even where the headless shell is installed: the benchmarks keep it, so their
   * figures stay comparable with the ones recorded before the tests moved to the shell.
   */
  full?: boolean
}

/** The system browser to launch, or undefined for Playwright's own. */
export function systemChromium({ full = false }: BrowserChoice = {}): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH
  return [...(full ? [] : [HEADLESS_SHELL]), FULL_CHROMIUM].find((path) => existsSync(path))
}

export function launchOptions(extraArgs: string[] = [], choice: BrowserChoice = {}): LaunchOptions {
  const system = systemChromium(choice)
  return {
    ...(system ? { executablePath: system } : {}),
    args: [...(system ? BASE_FLAGS : BASE_FLAGS.filter((f) => f !== '--headless')), ...extraArgs],
  }
}
