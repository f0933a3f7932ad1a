import { expect, type Page } from '@playwright/test'

/** A sonner toast containing the text. */
export const toast = (page: Page, text: string | RegExp) => page.locator('[data-sonner-toast]').filter({ hasText: text }).first()

/** Opens the Login / Register dialog from the sidebar on the given tab. */
export async function openAuth(page: Page, tab: 'Log In' | 'Register') {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'Login / Register' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toBeVisible()
  if (tab === 'Register') await dialog.getByRole('tab', { name: 'Register' }).click()
  return dialog
}

export async function register(page: Page, username: string, email: string, password: string) {
  const dialog = await openAuth(page, 'Register')
  await dialog.getByLabel('Username').fill(username)
  await dialog.getByLabel('Email').fill(email)
  await dialog.getByLabel('Password').fill(password)
  await dialog.getByRole('button', { name: 'Create Account' }).click()
}

export async function logIn(page: Page, email: string, password: string) {
  const dialog = await openAuth(page, 'Log In')
  await dialog.getByLabel('Email').fill(email)
  await dialog.getByLabel('Password').fill(password)
  await dialog.getByRole('button', { name: 'Log In' }).click()
  return dialog
}
