import { useId, useState } from 'react'
import type { UserSettings } from '../../backend/account-settings.ts'
import { DEFAULT_SETTINGS, useDeleteAccount, usePreferences } from './usePreferences.ts'
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

function PreferenceList({ userId, items }: { userId: string; items: typeof NOTIFICATIONS }) {
  const { settings, error, change } = usePreferences(userId)
  return (
    <div className="space-y-4">
      {items.map((item) => (
        <Toggle
          key={item.key}
          label={item.label}
          hint={item.hint}
          checked={(settings ?? DEFAULT_SETTINGS)[item.key]}
          disabled={!settings}
          onChange={(on) => void change(item.key, on)}
        />
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

function DeleteAccount({ userId }: { userId: string }) {
  const [typed, setTyped] = useState('')
  const { busy, error, remove: removeAccount } = useDeleteAccount(userId)
  const inputId = useId()
  const remove = () => removeAccount(typed)
  return (
    <SettingsSection
      title="Delete my account"
      description={
        'Removes your profile, playlists, favourites, follows, files and published tracks. Comments others ' +
        "replied to stay as 'comment deleted'; the token ledger keeps its rows without your name. This cannot be " +
        'undone.'
      }
    >
      <div className="space-y-2">
        <label htmlFor={inputId} className="block text-sm text-fg/90">
          Type your username to confirm
        </label>
        <input
          id={inputId}
          className="w-full rounded-md border border-line bg-bg px-3 py-2 text-fg focus:border-red-400 focus:outline-none"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
        />
        <FieldError message={error} />
        <button
          type="button"
          onClick={() => void remove()}
          disabled={busy || typed.trim() === ''}
          className="rounded-md bg-red-600 px-4 py-2 font-semibold text-white hover:bg-red-500 disabled:opacity-50"
        >
          {busy ? 'Deleting…' : 'Delete my account'}
        </button>
      </div>
    </SettingsSection>
  )
}

export function PrivacySettings({ userId }: { userId: string }) {
  return (
    <div className="space-y-4">
      <SettingsSection title="Privacy" description="Who sees what on your public profile.">
        <PreferenceList userId={userId} items={PRIVACY} />
      </SettingsSection>
      <DeleteAccount userId={userId} />
    </div>
  )
}
