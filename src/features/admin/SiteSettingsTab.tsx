import { useState, type FormEvent } from 'react'
import { notify } from '../../lib/notify.ts'
import { relativeTime } from '../../lib/relative-time.ts'
import { useAuditLog, useSiteSettings, type SiteSettingsForm } from './useSiteSettings.ts'
import { useAdministrators } from './useAdministrators.ts'
import { ErrorLine, Field, Panel, buttonClass, inputClass, quietButtonClass } from './admin-ui.tsx'

/** The reference's defaults, shown for a fresh site. */
const DEFAULT_PRIMARY = '#8B5CF6'

function AuditList({ version }: { version: number }) {
  const rows = useAuditLog(version)
  return (
    <Panel title="Change history" description="Every admin change: who, when, old → new (secrets masked).">
      {!rows ? (
        <p className="text-muted">Loading…</p>
      ) : rows.length === 0 ? (
        <p className="text-muted">No changes yet.</p>
      ) : (
        <ul className="divide-y divide-line text-sm" data-testid="admin-audit">
          {rows.map((r) => (
            <li key={r.id} className="py-2">
              <span className="text-fg">
                {r.area} · {r.field}
              </span>
              : <span className="text-muted">{r.old_value ?? '(empty)'}</span> → <span className="text-fg">{r.new_value ?? '(empty)'}</span>
              <span className="block text-xs text-muted">
                {r.actor_email ?? 'unknown'} · {relativeTime(r.created_at)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  )
}

function Administrators({ onChanged }: { onChanged: () => void }) {
  const { admins, error, setRole } = useAdministrators()
  const [email, setEmail] = useState('')
  const change = async (target: string, admin: boolean) => {
    if (!(await setRole(target, admin))) return
    notify.success(admin ? 'Administrator added' : 'Administrator removed', { description: target })
    setEmail('')
    onChanged()
  }
  return (
    <Panel title="Administrators" description="Grant or revoke the role by e-mail. The last administrator keeps it.">
      <ul className="space-y-1 text-sm" data-testid="admin-list">
        {admins.map((a) => (
          <li key={a.email} className="flex items-center justify-between gap-2">
            <span className="text-fg">{a.email}</span>
            <button type="button" className={quietButtonClass} onClick={() => void change(a.email, false)}>
              Revoke
            </button>
          </li>
        ))}
      </ul>
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault()
          void change(email, true)
        }}
        aria-label="Grant administrator role"
      >
        <label htmlFor="grant-admin-email" className="sr-only">
          E-mail of the account
        </label>
        <input
          id="grant-admin-email"
          type="email"
          required
          className={inputClass}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          placeholder="someone@example.com"
        />
        <button type="submit" className={buttonClass}>
          Grant
        </button>
      </form>
      <ErrorLine message={error} />
    </Panel>
  )
}

export function SiteSettingsTab() {
  const { form, mask, problems, error, busy, setField, save: saveSettings } = useSiteSettings()
  const [version, setVersion] = useState(0)

  const set = (key: keyof SiteSettingsForm) => (e: { target: { value: string } }) => setField(key, e.target.value)

  const save = async (e: FormEvent) => {
    e.preventDefault()
    if (!(await saveSettings())) return
    notify.success('Site settings saved')
    setVersion((v) => v + 1)
  }

  return (
    <div className="space-y-4">
      <Panel title="Site Settings" description="Title and primary colour apply to everyone's app as the brand default.">
        {!form ? (
          <p className="text-muted">{error ?? 'Loading…'}</p>
        ) : (
          <form onSubmit={(e) => void save(e)} className="grid gap-3 sm:grid-cols-2" aria-label="Site settings" noValidate>
            <Field label="Site title" error={problems.siteTitle}>
              {(p) => <input {...p} className={inputClass} value={form.siteTitle} onChange={set('siteTitle')} maxLength={80} />}
            </Field>
            <Field label="Primary color" hint={`Hex, e.g. ${DEFAULT_PRIMARY}; empty keeps each theme's own.`} error={problems.primaryColor}>
              {(p) => (
                <div className="flex gap-2">
                  <input
                    {...p}
                    className={inputClass}
                    value={form.primaryColor}
                    onChange={set('primaryColor')}
                    placeholder={DEFAULT_PRIMARY}
                  />
                  <input
                    type="color"
                    aria-label="Pick the primary colour"
                    value={/^#[0-9a-fA-F]{6}$/.test(form.primaryColor) ? form.primaryColor : DEFAULT_PRIMARY}
                    onChange={set('primaryColor')}
                    className="h-10 w-12 cursor-pointer rounded border border-line bg-transparent"
                  />
                </div>
              )}
            </Field>
            <Field
              label="Maximum free songs"
              hint="AI-generated songs a visitor may save per day without an account."
              error={problems.maxFreeSongs}
            >
              {(p) => (
                <input
                  {...p}
                  type="number"
                  min={0}
                  max={1000}
                  step={1}
                  className={inputClass}
                  value={form.maxFreeSongs}
                  onChange={set('maxFreeSongs')}
                />
              )}
            </Field>
            <Field
              label="Database connection URL"
              hint={mask ? `Saved: ${mask}. Leave empty to keep it.` : 'Not set.'}
              error={problems.databaseUrl}
            >
              {(p) => (
                <input
                  {...p}
                  type="password"
                  autoComplete="off"
                  className={inputClass}
                  value={form.databaseUrl}
                  onChange={set('databaseUrl')}
                  placeholder="postgresql://user:password@host:5432/db"
                />
              )}
            </Field>
            <Field label="API base URL" error={problems.apiBaseUrl}>
              {(p) => (
                <input
                  {...p}
                  className={inputClass}
                  value={form.apiBaseUrl}
                  onChange={set('apiBaseUrl')}
                  placeholder="https://api.example.com"
                  inputMode="url"
                />
              )}
            </Field>
            <Field label="API timeout (ms)" error={problems.apiTimeoutMs}>
              {(p) => (
                <input
                  {...p}
                  type="number"
                  min={1000}
                  step={1000}
                  className={inputClass}
                  value={form.apiTimeoutMs}
                  onChange={set('apiTimeoutMs')}
                />
              )}
            </Field>
            <Field label="Max retries" error={problems.maxRetries}>
              {(p) => (
                <input
                  {...p}
                  type="number"
                  min={0}
                  max={10}
                  step={1}
                  className={inputClass}
                  value={form.maxRetries}
                  onChange={set('maxRetries')}
                />
              )}
            </Field>
            <div className="space-y-2 sm:col-span-2">
              <ErrorLine message={error} />
              <button type="submit" className={buttonClass} disabled={busy}>
                {busy ? 'Saving…' : 'Save site settings'}
              </button>
            </div>
          </form>
        )}
      </Panel>
      <Administrators onChanged={() => setVersion((v) => v + 1)} />
      <AuditList version={version} />
    </div>
  )
}
