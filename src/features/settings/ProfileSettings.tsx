import { useId } from 'react'
import { AVATAR_SIZE_PX, BIO_MAX } from '../../lib/profile-rules.ts'
import { useProfileEditor } from './useProfileEditor.ts'
import { FieldError, SettingsSection, buttonClass, inputClass, quietButtonClass } from './settings-ui.tsx'

export function ProfileSettings({ userId }: { userId: string }) {
  const { loaded, username, editUsername, bio, editBio, avatarSrc, error, avatarError, busy, file, save, pickAvatar } =
    useProfileEditor(userId)
  const ids = { username: useId(), bio: useId(), bioCount: useId(), avatar: useId() }

  return (
    <SettingsSection title="Profile" description="How other listeners see you.">
      <div className="flex items-center gap-4">
        <div
          className={
            'flex h-20 w-20 shrink-0 items-center justify-center overflow-hidden rounded-full border border-line ' +
            'bg-gradient-to-br from-primary/50 to-secondary/50 font-display text-2xl font-black text-bg'
          }
          data-testid="settings-avatar"
        >
          {avatarSrc ? (
            <img src={avatarSrc} alt="Your avatar" className="h-full w-full object-cover" />
          ) : (
            <span aria-hidden>{username.slice(0, 2).toUpperCase()}</span>
          )}
        </div>
        <div className="space-y-1">
          <label htmlFor={ids.avatar} className={`${quietButtonClass} inline-block cursor-pointer`}>
            {busy === 'avatar' ? 'Uploading…' : 'Upload avatar'}
          </label>
          <input
            id={ids.avatar}
            ref={file}
            type="file"
            accept="image/png,image/jpeg,image/webp"
            className="sr-only"
            disabled={busy !== null}
            onChange={(e) => void pickAvatar(e.target.files?.[0])}
          />
          <p className="text-xs text-muted">PNG, JPEG or WebP, at most 2 MB; cropped to a {AVATAR_SIZE_PX} px square.</p>
        </div>
      </div>
      <FieldError message={avatarError} />
      <form onSubmit={save} className="space-y-3" aria-label="Profile">
        <div className="space-y-1">
          <label htmlFor={ids.username} className="block text-sm text-fg/90">
            Username
          </label>
          <input
            id={ids.username}
            className={inputClass}
            value={username}
            onChange={(e) => editUsername(e.target.value)}
            maxLength={30}
            autoComplete="username"
            disabled={!loaded}
          />
          <p className="text-xs text-muted">
            3 to 30 letters (any alphabet), digits, ., - or _. Your public page is /user/{username.trim() || 'name'}.
          </p>
        </div>
        <div className="space-y-1">
          <label htmlFor={ids.bio} className="block text-sm text-fg/90">
            Bio
          </label>
          <textarea
            id={ids.bio}
            className={`${inputClass} min-h-24`}
            value={bio}
            onChange={(e) => editBio(e.target.value)}
            aria-describedby={ids.bioCount}
            disabled={!loaded}
          />
          <p id={ids.bioCount} className={`text-xs ${bio.length > BIO_MAX ? 'text-red-400' : 'text-muted'}`}>
            {bio.length}/{BIO_MAX}
          </p>
        </div>
        <FieldError message={error} />
        <button type="submit" className={buttonClass} disabled={!loaded || busy !== null || bio.length > BIO_MAX}>
          {busy === 'save' ? 'Saving…' : 'Save profile'}
        </button>
      </form>
    </SettingsSection>
  )
}
