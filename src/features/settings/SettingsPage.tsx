import { useEffect, useState, type KeyboardEvent } from 'react'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { AccountSettings } from './AccountSettings.tsx'
import { AppearanceSettings } from './AppearanceSettings.tsx'
import { NotificationSettings, PrivacySettings } from './PreferenceSettings.tsx'
import { PlaybackSettings } from './PlaybackSettings.tsx'
import { ProfileSettings } from './ProfileSettings.tsx'

const TABS = [
  { key: 'profile', label: 'Profile' },
  { key: 'account', label: 'Account' },
  { key: 'appearance', label: 'Appearance' },
  { key: 'playback', label: 'Playback' },
  { key: 'notifications', label: 'Notifications' },
  { key: 'privacy', label: 'Privacy' },
] as const
type Tab = (typeof TABS)[number]['key']

function SignInPrompt() {
  const open = useAuthModalStore((s) => s.open)
  return (
    <div className="panel space-y-3 p-5" data-testid="settings-sign-in">
      <p className="text-fg/90">Log in to change your profile, account, notifications and privacy.</p>
      <button
        type="button"
        onClick={() => open('login')}
        className="rounded-md bg-primary px-4 py-2 font-semibold text-bg hover:opacity-90"
      >
        Log In
      </button>
    </div>
  )
}

export default function SettingsPage() {
  const [tab, setTab] = useState<Tab>('profile')
  const status = useSessionStore((s) => s.status)
  const userId = useSessionStore((s) => s.user?.id)
  useEffect(() => {
    document.title = 'Settings · CUBE Music'
  }, [])

  const onKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const i = TABS.findIndex((t) => t.key === tab)
    const next =
      e.key === 'ArrowRight'
        ? (i + 1) % TABS.length
        : e.key === 'ArrowLeft'
          ? (i + TABS.length - 1) % TABS.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? TABS.length - 1
              : -1
    if (next < 0) return
    e.preventDefault()
    setTab(TABS[next]!.key)
    document.getElementById(`settings-tab-${TABS[next]!.key}`)?.focus()
  }

  const body = () => {
    if (tab === 'appearance') return <AppearanceSettings />
    if (tab === 'playback') return <PlaybackSettings />
    if (status === 'loading') return <p className="text-muted">Loading…</p>
    if (!userId) return <SignInPrompt />
    if (tab === 'profile') return <ProfileSettings key={userId} userId={userId} />
    if (tab === 'account') return <AccountSettings key={userId} />
    if (tab === 'notifications') return <NotificationSettings key={userId} userId={userId} />
    return <PrivacySettings key={userId} userId={userId} />
  }

  return (
    <section className="mx-auto max-w-3xl space-y-5 p-4 sm:p-6">
      <header>
        <h1 className="font-display text-3xl font-bold text-primary neon-text">Settings</h1>
        <p className="text-muted">Your profile, account security, appearance and preferences.</p>
      </header>
      <div role="tablist" aria-label="Settings" className="flex flex-wrap gap-1 rounded-md bg-bg p-1 text-sm">
        {TABS.map((t) => (
          <button
            key={t.key}
            id={`settings-tab-${t.key}`}
            type="button"
            role="tab"
            aria-selected={tab === t.key}
            aria-controls="settings-panel"
            tabIndex={tab === t.key ? 0 : -1}
            onClick={() => setTab(t.key)}
            onKeyDown={onKey}
            className={`rounded px-3 py-1.5 font-semibold ${tab === t.key ? 'bg-primary/20 text-primary' : 'text-muted hover:text-fg'}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="settings-panel" aria-labelledby={`settings-tab-${tab}`}>
        {body()}
      </div>
    </section>
  )
}
