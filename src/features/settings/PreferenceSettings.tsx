import { useEffect, useState } from 'react'
import { DEFAULT_SETTINGS, fetchUserSettings, saveUserSettings, type UserSettings } from '../../backend/account-settings.ts'
import { supabase } from '../../backend/client.ts'
import { notify } from '../../lib/notify.ts'
import { FieldError, SettingsSection, Toggle } from './settings-ui.tsx'

type Key = keyof UserSettings

const NOTIFICATIONS: { key: Key; label: string; hint: string }[] = [
  { key: 'notify_replies', label: 'Replies to my comments', hint: 'A notice when someone replies to you.' },
  { key: 'notify_followers', label: 'New followers', hint: 'A notice when someone follows you.' },
  { key: 'notify_votes', label: 'Votes closing', hint: 'When a proposal you voted on closes, with its result.' },
  { key: 'notify_mints', label: 'Mint completed', hint: 'When an NFT you minted is on the chain.' },
]
const PRIVACY: { key: Key; label: string; hint: string }[] = [
  { key: 'public_profile', label: 'Public profile', hint: 'Off: others see only your username on /user/…, not your bio or tracks.' },
  { key: 'show_activity', label: 'Show listening activity', hint: 'Off: what you listen to is not shown on your public profile.' },
]

/** The server-side preferences of one group (Notifications or Privacy), saved on every switch. */
function usePreferences(userId: string) {
  const [settings, setSettings] = useState<UserSettings | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    fetchUserSettings(supabase(), userId)
      .then((s) => live && setSettings(s))
      .catch((e: unknown) => live && setError((e as Error).message))
    return () => {
      live = false
    }
  }, [userId])
  const change = async (key: Key, on: boolean) => {
    if (!settings) return
    const previous = settings
    const next = { ...settings, [key]: on }
    setSettings(next)
    setError(null)
    try {
      await saveUserSettings(supabase(), userId, next)
      notify.success('Settings saved')
    } catch (e) {
      setSettings(previous)
      setError((e as Error).message)
    }
  }
  return { settings, error, change }
}

function PreferenceList({ userId, items }: { userId: string; items: typeof NOTIFICATIONS }) {
  const { settings, error, change } = usePreferences(userId)
  return (
    <div className="space-y-4">
      {items.map((item) => (
        <Toggle key={item.key} label={item.label} hint={item.hint} checked={(settings ?? DEFAULT_SETTINGS)[item.key]} disabled={!settings}
          onChange={(on) => void change(item.key, on)} />
      ))}
      <FieldError message={error} />
    </div>
  )
}

export function NotificationSettings({ userId }: { userId: string }) {
  return (
    <SettingsSection title="Notifications" description="Live notices in the app while you are signed in.">
      <PreferenceList userId={userId} items={NOTIFICATIONS} />
    </SettingsSection>
  )
}

export function PrivacySettings({ userId }: { userId: string }) {
  return (
    <SettingsSection title="Privacy" description="Who sees what on your public profile.">
      <PreferenceList userId={userId} items={PRIVACY} />
    </SettingsSection>
  )
}
