import { useEffect, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { siteSettingsProblems, type SiteSettings, type SiteSettingsInput } from '../../backend/admin.ts'
import { useBackend } from '../../domain/session/backend-context.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { applySiteSettings } from '../../domain/appearance/site-branding.ts'
import { adminKeys } from './admin-keys.ts'

/** The form holds what the user typed: numbers stay text until Save checks them. */
export type SiteSettingsForm = Omit<SiteSettingsInput, 'maxFreeSongs' | 'apiTimeoutMs' | 'maxRetries' | 'databaseUrl'> & {
  maxFreeSongs: string
  apiTimeoutMs: string
  maxRetries: string
  databaseUrl: string
}
export type SiteSettingsProblems = Partial<Record<keyof SiteSettingsInput, string>>

const toForm = (s: SiteSettings): SiteSettingsForm => ({
  siteTitle: s.site_title,
  primaryColor: s.primary_color ?? '',
  maxFreeSongs: String(s.max_free_songs),
  // Write-only: the saved URL is shown as its mask, never sent back.
  databaseUrl: '',
  apiBaseUrl: s.api_base_url ?? '',
  apiTimeoutMs: String(s.api_timeout_ms),
  maxRetries: String(s.max_retries),
})

const toInput = (form: SiteSettingsForm): SiteSettingsInput => ({
  siteTitle: form.siteTitle,
  primaryColor: form.primaryColor.trim(),
  maxFreeSongs: Number(form.maxFreeSongs),
  databaseUrl: form.databaseUrl.trim() || undefined,
  apiBaseUrl: form.apiBaseUrl.trim(),
  apiTimeoutMs: Number(form.apiTimeoutMs),
  maxRetries: Number(form.maxRetries),
})

/**
 * The site settings form: loaded from the server, checked field by field before Save, and, once
 * saved, applied to this app's branding at once.
 */
export function useSiteSettings() {
  const { admin, client } = useBackend()
  const [form, setForm] = useState<SiteSettingsForm | null>(null)
  const [mask, setMask] = useState<string | null>(null)
  const [problems, setProblems] = useState<SiteSettingsProblems>({})
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    let live = true
    admin
      .fetchSiteSettings(client.supabase())
      .then((s) => {
        if (!live) return
        setForm(toForm(s))
        setMask(s.database_url_mask)
      })
      .catch((e: unknown) => live && setError(errorMessage(e)))
    return () => {
      live = false
    }
  }, [admin, client])

  const setField = (key: keyof SiteSettingsForm, value: string) => setForm((f) => (f ? { ...f, [key]: value } : f))

  /** True when the settings were valid and the server saved them. */
  const save = async (): Promise<boolean> => {
    if (!form) return false
    const input = toInput(form)
    const found = siteSettingsProblems(input)
    setProblems(found)
    if (Object.keys(found).length) return false
    setBusy(true)
    setError(null)
    try {
      const saved = await admin.saveSiteSettings(client.supabase(), input)
      setForm(toForm(saved))
      setMask(saved.database_url_mask)
      applySiteSettings({ site_title: saved.site_title, primary_color: saved.primary_color, max_free_songs: saved.max_free_songs })
      return true
    } catch (err) {
      setError(errorMessage(err))
      return false
    } finally {
      setBusy(false)
    }
  }

  return { form, mask, problems, error, busy, setField, save }
}

/** The admin change history, read again whenever `version` changes; empty when it cannot be read. */
export function useAuditLog(version: number) {
  const { admin, client } = useBackend()
  const query = useQuery({
    queryKey: adminKeys.audit(version),
    queryFn: () => admin.fetchAudit(client.supabase()),
    retry: false,
  })
  return query.isError ? [] : (query.data ?? null)
}
