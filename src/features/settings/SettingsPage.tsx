import { useEffect, useState } from 'react'
import { SimpleTabs } from '../../ui/SimpleTabs.tsx'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { AccountSettings } from './AccountSettings.tsx'
import { AppearanceSettings } from './AppearanceSettings.tsx'
import { PlaybackSettings } from './PlaybackSettings.tsx'
import { NotificationSettings, PrivacySettings } from './PreferenceSettings.tsx'
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
      <SimpleTabs tabs={TABS} value={tab} onChange={setTab} label="Settings" idPrefix="settings" />
      <div role="tabpanel" id={`settings-panel-${tab}`} aria-labelledby={`settings-tab-${tab}`}>
        {body()}
      </div>
    </section>
  )
}
