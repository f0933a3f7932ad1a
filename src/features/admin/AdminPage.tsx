import { useEffect, useState } from 'react'
import { SimpleTabs } from '../../ui/SimpleTabs.tsx'
import type { AiCategory } from '../../backend/admin.ts'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { AI_CATEGORIES, AiSettingsTab } from './AiSettingsTab.tsx'
import { ApiConfigTab } from './ApiConfigTab.tsx'
import { KnowledgeBaseTab } from './KnowledgeBaseTab.tsx'
import { SiteSettingsTab } from './SiteSettingsTab.tsx'
import { EconomyTab } from './EconomyTab.tsx'

// Ordered by what this deployment runs on: the economy, the site and the backend first; then Text
// AI (the Mint studio's descriptions call it when configured); last the providers nothing in the
// app calls as shipped (Music, Image, Inference AI: the generator and covers run on the device).
export const ADMIN_TABS = [
  { key: 'economy', label: 'Economy' },
  { key: 'site', label: 'Site Settings' },
  { key: 'api', label: 'API Config' },
  { key: 'knowledge', label: 'Knowledge Base' },
  { key: 'text', label: 'Text AI' },
  { key: 'music', label: 'Music AI' },
  { key: 'image', label: 'Image AI' },
  { key: 'inference', label: 'Inference AI' },
] as const
const TABS = ADMIN_TABS
type Tab = (typeof TABS)[number]['key']

function Denied({ signedIn }: { signedIn: boolean }) {
  const openAuth = useAuthModalStore((s) => s.open)
  return (
    <section className="mx-auto max-w-3xl p-6" data-testid="admin-denied">
      <h1 className="font-display text-3xl font-bold text-primary neon-text">Admin</h1>
      <div role="alert" className="panel mt-4 p-4">
        <p className="font-semibold text-fg">Administrators only</p>
        <p className="mt-1 text-sm text-muted">
          {signedIn ? 'Your account does not have the administrator role.' : 'Log in with an administrator account to open this page.'}
        </p>
        {!signedIn && (
          <button
            type="button"
            onClick={() => openAuth('login')}
            className="mt-3 rounded-md border border-primary/60 px-3 py-1.5 text-sm text-primary hover:bg-primary/10"
          >
            Log In
          </button>
        )}
      </div>
    </section>
  )
}

/** Access follows the server's administrator role; every call behind the tabs is checked by the server again. */
export default function AdminPage() {
  const status = useSessionStore((s) => s.status)
  const isAdmin = useSessionStore((s) => s.isAdmin)
  const roleKnown = useSessionStore((s) => s.roleKnown)
  const userId = useSessionStore((s) => s.user?.id)
  const [tab, setTab] = useState<Tab>(TABS[0].key)
  useEffect(() => {
    document.title = 'Admin Dashboard · CUBE Music'
  }, [])

  if (status === 'loading' || !roleKnown)
    return (
      <p className="p-6 text-muted" aria-live="polite">
        Checking access…
      </p>
    )
  if (!isAdmin) return <Denied signedIn={status === 'signed-in'} />

  return (
    <section className="mx-auto max-w-4xl space-y-5 p-4 sm:p-6" data-testid="admin-page">
      <header>
        <h1 className="font-display text-3xl font-bold text-primary neon-text">Admin Dashboard</h1>
        <p className="text-muted">
          The CUBE economy, site settings, the backend's health, the knowledge base, and the AI providers (each says what it is for).
        </p>
      </header>
      <SimpleTabs tabs={TABS} value={tab} onChange={setTab} label="Admin" idPrefix="admin" />
      <div role="tabpanel" id={`admin-panel-${tab}`} aria-labelledby={`admin-tab-${tab}`} key={`${userId}-${tab}`}>
        {tab in AI_CATEGORIES ? (
          <AiSettingsTab category={tab as AiCategory} />
        ) : tab === 'site' ? (
          <SiteSettingsTab />
        ) : tab === 'knowledge' ? (
          <KnowledgeBaseTab />
        ) : tab === 'economy' ? (
          <EconomyTab />
        ) : (
          <ApiConfigTab />
        )}
      </div>
    </section>
  )
}
