import { create } from 'zustand'
import { fetchPublicSiteSettings, type PublicSiteSettings } from '../../backend/admin.ts'
import { supabase } from '../../backend/client.ts'
import { useThemeStore } from './theme-store.ts'

// The administrators' brand for everyone: the site title (sidebar and every page title) and the
// primary colour (the theme's default primary, unless the user picked their own), read from the
// server's public_site_settings() at start.

export const DEFAULT_SITE_TITLE = 'CUBE Music'

export const useSiteSettings = create<PublicSiteSettings>()(() => ({
  site_title: DEFAULT_SITE_TITLE,
  primary_color: null,
  max_free_songs: 1,
}))

/** Pages write 'Page · CUBE Music'; the site's own title replaces the brand part. */
export function brandTitle(title: string, siteTitle: string): string {
  if (siteTitle === DEFAULT_SITE_TITLE) return title
  if (title === DEFAULT_SITE_TITLE) return siteTitle
  return title.endsWith(` · ${DEFAULT_SITE_TITLE}`) ? `${title.slice(0, -DEFAULT_SITE_TITLE.length)}${siteTitle}` : title
}

export function applySiteSettings(s: PublicSiteSettings): void {
  useSiteSettings.setState(s)
  useThemeStore.getState().setBrandPrimary(s.primary_color)
  const branded = brandTitle(document.title, s.site_title)
  if (branded !== document.title) document.title = branded
}

let started = false

/** Loads the brand once and keeps every page title branded as pages change it. */
export function startSiteBranding(): void {
  if (started) return
  started = true
  fetchPublicSiteSettings(supabase())
    .then(applySiteSettings)
    .catch((error: unknown) => console.warn('site settings could not be loaded; using the defaults', error))
  const titleEl = document.querySelector('title')
  if (!titleEl) return
  new MutationObserver(() => {
    const branded = brandTitle(document.title, useSiteSettings.getState().site_title)
    if (branded !== document.title) document.title = branded
  }).observe(titleEl, { childList: true, characterData: true, subtree: true })
}
