import { type Page } from '@playwright/test'
import { expect, test } from './support/test.ts'
import { toast } from './support/auth.ts'
import { signUpByApi } from './support/session.ts'

// The profile banner is generated (theme colours, pattern seeded by the username) or
// uploaded (bucket profile-banners, <user id>/banner), and survives a reload.

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`
const banner = (page: Page) => page.getByTestId('profile-banner')

/** A tiny valid PNG: 2×2, red. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==', 'base64')

async function signedIn(page: Page) {
  const name = `bn${unique()}`.slice(0, 20)
  await signUpByApi(page, { username: name, email: `${name}@example.com`, password: 'banner-pass-1' })
  await page.goto('/app/home')
  await expect(page.getByTestId('profile-username')).toHaveText(name)
  return name
}

test('visitors see a generated banner, not an empty box; the avatar is drawn over it, whole', async ({ page }) => {
  await page.goto('/app/home')
  const svg = banner(page).getByTestId('profile-banner-generated')
  await expect(svg).toBeVisible()
  expect(await svg.locator('rect, circle, polyline').count()).toBeGreaterThan(40)
  await expect(banner(page).getByText('Upload banner')).toHaveCount(0)
  // The banner was painted over the avatar's upper half. What is on top at the
  // avatar's top, middle and bottom is the avatar itself.
  const avatar = page.getByTestId('profile-avatar')
  const hits = await avatar.evaluate((el) => {
    const r = el.getBoundingClientRect()
    return [r.top + 6, r.top + r.height / 2, r.bottom - 6].map((y) => el.contains(document.elementFromPoint(r.left + r.width / 2, y)))
  })
  expect(hits).toEqual([true, true, true])
})

test(
  'a signed-in user gets their own generated banner; an upload replaces it across reloads, Remove brings the generated ' + 'one back',
  async ({ page }) => {
    await signedIn(page)
    const generated = banner(page).getByTestId('profile-banner-generated')
    await expect(generated).toBeVisible()
    const shapes = await generated.locator('rect, circle, polyline').count()
    expect(shapes).toBeGreaterThan(40)
    // Pixels, not just elements: a flat box compresses to a few hundred bytes of PNG, the drawing does not.
    const shot = await banner(page).screenshot()
    expect(shot.length).toBeGreaterThan(2000)

    // Wrong type and too large: refused with a message, the generated banner stays.
    const input = banner(page).locator('input[type=file]')
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') })
    await expect(toast(page, 'Banner not changed')).toContainText('PNG, JPEG or WebP')
    await input.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(2 * 1024 * 1024 + 1) })
    await expect(toast(page, 'Banner not changed')).toContainText('at most 2 MB')
    await expect(generated).toBeVisible()
    await expect(banner(page)).toHaveAttribute('data-banner', 'none')

    await input.setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: PNG })
    await expect(toast(page, 'Banner updated')).toBeVisible()
    await expect(banner(page).getByTestId('profile-banner-image')).toBeVisible()

    await page.reload()
    const image = banner(page).getByTestId('profile-banner-image')
    await expect(image).toBeVisible()
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2)
    await expect(generated).toHaveCount(0)

    await banner(page).getByRole('button', { name: 'Remove banner' }).click()
    await expect(toast(page, 'Banner removed')).toBeVisible()
    await expect(generated).toBeVisible()
    await page.reload()
    await expect(banner(page).getByTestId('profile-banner-generated')).toBeVisible()
    await expect(banner(page)).toHaveAttribute('data-banner', 'none')
  },
)
