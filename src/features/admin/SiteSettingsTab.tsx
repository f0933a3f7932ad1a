import { useCallback, useEffect, useState, type FormEvent } from 'react'
import { fetchAudit, fetchSiteSettings, listAdmins, saveSiteSettings, setAdminRole, siteSettingsProblems, type AuditRow, type SiteSettings, type SiteSettingsInput } from '../../backend/admin.ts'
import { supabase } from '../../backend/client.ts'
import { notify } from '../../lib/notify.ts'
import { relativeTime } from '../../lib/relative-time.ts'
import { applySiteSettings } from '../../domain/appearance/site-branding.ts'
import { ErrorLine, Field, Panel, buttonClass, inputClass, quietButtonClass } from './admin-ui.tsx'

/** The reference's defaults, shown for a fresh site. */
const DEFAULT_PRIMARY = '#8B5CF6'

type Form = Omit<SiteSettingsInput, 'maxFreeSongs' | 'apiTimeoutMs' | 'maxRetries' | 'databaseUrl'> & { maxFreeSongs: string; apiTimeoutMs: string; maxRetries: string; databaseUrl: string }

const toForm = (s: SiteSettings): Form => ({
  siteTitle: s.site_title,
  primaryColor: s.primary_color ?? '',
  maxFreeSongs: String(s.max_free_songs),
  databaseUrl: '',
  apiBaseUrl: s.api_base_url ?? '',
  apiTimeoutMs: String(s.api_timeout_ms),
  maxRetries: String(s.max_retries),
})

function AuditList({ version }: { version: number }) {
  const [rows, setRows] = useState<AuditRow[] | null>(null)
  useEffect(() => {
    let live = true
    fetchAudit(supabase())
      .then((r) => live && setRows(r))
      .catch(() => live && setRows([]))
    return () => {
      live = false
    }
  }, [version])
  return (
    <Panel title="Change history" description="Every admin change: who, when, old → new (secrets masked).">
      {!rows ? <p className="text-muted">Loading…</p> : rows.length === 0 ? <p className="text-muted">No changes yet.</p> : (
        <ul className="divide-y divide-line text-sm" data-testid="admin-audit">
          {rows.map((r) => (
            <li key={r.id} className="py-2">
              <span className="text-fg">{r.area} · {r.field}</span>: <span className="text-muted">{r.old_value ?? '(empty)'}</span> → <span className="text-fg">{r.new_value ?? '(empty)'}</span>
              <span className="block text-xs text-muted">{r.actor_email ?? 'unknown'} · {relativeTime(r.created_at)}</span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  )
}

function Administrators({ onChanged }: { onChanged: () => void }) {
  const [admins, setAdmins] = useState<{ email: string }[]>([])
  const [email, setEmail] = useState('')
  const [error, setError] = useState<string | null>(null)
  const load = useCallback(() => listAdmins(supabase()).then(setAdmins).catch((e: unknown) => setError((e as Error).message)), [])
  useEffect(() => {
    let live = true
    listAdmins(supabase()).then((a) => live && setAdmins(a)).catch((e: unknown) => live && setError((e as Error).message))
    return () => {
      live = false
    }
  }, [])
  const change = async (target: string, admin: boolean) => {
    setError(null)
    try {
      await setAdminRole(supabase(), target, admin)
      notify.success(admin ? 'Administrator added' : 'Administrator removed', { description: target })
      setEmail('')
      await load()
      onChanged()
    } catch (e) {
      setError((e as Error).message)
    }
  }
  return (
    <Panel title="Administrators" description="Grant or revoke the role by e-mail. The last administrator keeps it.">
      <ul className="space-y-1 text-sm" data-testid="admin-list">
        {admins.map((a) => (
          <li key={a.email} className="flex items-center justify-between gap-2">
            <span className="text-fg">{a.email}</span>
            <button type="button" className={quietButtonClass} onClick={() => void change(a.email, false)}>Revoke</button>
          </li>
        ))}
      </ul>
      <form className="flex gap-2" onSubmit={(e) => { e.preventDefault(); void change(email, true) }} aria-label="Grant administrator role">
        <label htmlFor="grant-admin-email" className="sr-only">E-mail of the account</label>
        <input id="grant-admin-email" type="email" required className={inputClass} value={email} onChange={(e) => setEmail(e.target.value)} placeholder="someone@example.com" />
        <button type="submit" className={buttonClass}>Grant</button>
      </form>
      <ErrorLine message={error} />
    </Panel>
  )
}

export function SiteSettingsTab() {
  const [form, setForm] = useState<Form | null>(null)
  const [mask, setMask] = useState<string | null>(null)
  const [problems, setProblems] = useState<Partial<Record<keyof SiteSettingsInput, string>>>({})
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [version, setVersion] = useState(0)

  useEffect(() => {
    let live = true
    fetchSiteSettings(supabase())
      .then((s) => {
        if (!live) return
        setForm(toForm(s))
        setMask(s.database_url_mask)
      })
      .catch((e: unknown) => live && setError((e as Error).message))
    return () => {
      live = false
    }
  }, [])

  const set = (key: keyof Form) => (e: { target: { value: string } }) => setForm((f) => (f ? { ...f, [key]: e.target.value } : f))

  const save = async (e: FormEvent) => {
    e.preventDefault()
    if (!form) return
    const input: SiteSettingsInput = {
      siteTitle: form.siteTitle,
      primaryColor: form.primaryColor.trim(),
      maxFreeSongs: Number(form.maxFreeSongs),
      databaseUrl: form.databaseUrl.trim() || undefined,
      apiBaseUrl: form.apiBaseUrl.trim(),
      apiTimeoutMs: Number(form.apiTimeoutMs),
      maxRetries: Number(form.maxRetries),
    }
    const found = siteSettingsProblems(input)
    setProblems(found)
    if (Object.keys(found).length) return
    setBusy(true)
    setError(null)
    try {
      const saved = await saveSiteSettings(supabase(), input)
      setForm(toForm(saved))
      setMask(saved.database_url_mask)
      applySiteSettings({ site_title: saved.site_title, primary_color: saved.primary_color, max_free_songs: saved.max_free_songs })
      notify.success('Site settings saved')
      setVersion((v) => v + 1)
    } catch (err) {
      setError((err as Error).message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="space-y-4">
      <Panel title="Site Settings" description="Title and primary colour apply to everyone's app as the brand default.">
        {!form ? <p className="text-muted">{error ?? 'Loading…'}</p> : (
          <form onSubmit={(e) => void save(e)} className="grid gap-3 sm:grid-cols-2" aria-label="Site settings" noValidate>
            <Field label="Site title" error={problems.siteTitle}>
              {(p) => <input {...p} className={inputClass} value={form.siteTitle} onChange={set('siteTitle')} maxLength={80} />}
            </Field>
            <Field label="Primary color" hint={`Hex, e.g. ${DEFAULT_PRIMARY}; empty keeps each theme's own.`} error={problems.primaryColor}>
              {(p) => (
                <div className="flex gap-2">
                  <input {...p} className={inputClass} value={form.primaryColor} onChange={set('primaryColor')} placeholder={DEFAULT_PRIMARY} />
                  <input type="color" aria-label="Pick the primary colour" value={/^#[0-9a-fA-F]{6}$/.test(form.primaryColor) ? form.primaryColor : DEFAULT_PRIMARY}
                    onChange={set('primaryColor')} className="h-10 w-12 cursor-pointer rounded border border-line bg-transparent" />
                </div>
              )}
            </Field>
            <Field label="Maximum free songs" hint="AI-generated songs a visitor may save per day without an account." error={problems.maxFreeSongs}>
              {(p) => <input {...p} type="number" min={0} max={1000} step={1} className={inputClass} value={form.maxFreeSongs} onChange={set('maxFreeSongs')} />}
            </Field>
            <Field label="Database connection URL" hint={mask ? `Saved: ${mask}. Leave empty to keep it.` : 'Not set.'} error={problems.databaseUrl}>
              {(p) => <input {...p} type="password" autoComplete="off" className={inputClass} value={form.databaseUrl} onChange={set('databaseUrl')} placeholder="postgresql://user:password@host:5432/db" />}
            </Field>
            <Field label="API base URL" error={problems.apiBaseUrl}>
              {(p) => <input {...p} className={inputClass} value={form.apiBaseUrl} onChange={set('apiBaseUrl')} placeholder="https://api.example.com" inputMode="url" />}
            </Field>
            <Field label="API timeout (ms)" error={problems.apiTimeoutMs}>
              {(p) => <input {...p} type="number" min={1000} step={1000} className={inputClass} value={form.apiTimeoutMs} onChange={set('apiTimeoutMs')} />}
            </Field>
            <Field label="Max retries" error={problems.maxRetries}>
              {(p) => <input {...p} type="number" min={0} max={10} step={1} className={inputClass} value={form.maxRetries} onChange={set('maxRetries')} />}
            </Field>
            <div className="space-y-2 sm:col-span-2">
              <ErrorLine message={error} />
              <button type="submit" className={buttonClass} disabled={busy}>{busy ? 'Saving…' : 'Save site settings'}</button>
            </div>
          </form>
        )}
      </Panel>
      <Administrators onChanged={() => setVersion((v) => v + 1)} />
      <AuditList version={version} />
    </div>
  )
}
