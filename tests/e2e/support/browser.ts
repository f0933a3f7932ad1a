import { existsSync } from 'node:fs'
import type { LaunchOptions } from '@playwright/test'

// Debian's Chromium where it is installed (this machine, CI); Playwright's own browser otherwise,
// so the suite also runs on an ordinary developer laptop after `npx playwright install chromium`.
const SYSTEM_CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

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

export function launchOptions(extraArgs: string[] = []): LaunchOptions {
  const system = existsSync(SYSTEM_CHROMIUM)
  return {
    ...(system ? { executablePath: SYSTEM_CHROMIUM } : {}),
    args: [...(system ? BASE_FLAGS : BASE_FLAGS.filter((f) => f !== '--headless')), ...extraArgs],
  }
}
