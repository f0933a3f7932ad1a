import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { AVATAR_SIZE_PX, BIO_MAX, avatarFileProblem, saveProfileFields, uploadAvatar, usernameProblem } from '../../backend/account-settings.ts'
import { supabase } from '../../backend/client.ts'
import { fetchProfile } from '../../backend/profile.ts'
import { notify } from '../../lib/notify.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { useAvatarSrc } from '../../domain/profile/use-avatar-src.ts'
import { squareAvatar } from './avatar-image.ts'
import { FieldError, SettingsSection, buttonClass, inputClass, quietButtonClass } from './settings-ui.tsx'

export function ProfileSettings({ userId }: { userId: string }) {
  const bumpActivity = useSessionStore((s) => s.bumpActivity)
  const [loaded, setLoaded] = useState(false)
  const [username, setUsername] = useState('')
  const [bio, setBio] = useState('')
  const [avatar, setAvatar] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [avatarError, setAvatarError] = useState<string | null>(null)
  const [busy, setBusy] = useState<'save' | 'avatar' | null>(null)
  const file = useRef<HTMLInputElement>(null)
  // A late answer (or a second load after the session settles) never overwrites what the user typed.
  const edited = useRef(false)
  const ids = { username: useId(), bio: useId(), bioCount: useId(), avatar: useId() }
  const avatarSrc = useAvatarSrc(avatar)

  useEffect(() => {
    let live = true
    fetchProfile(userId)
      .then((p) => {
        if (!live || !p) return
        if (!edited.current) {
          setUsername(p.username)
          setBio(p.bio ?? '')
        }
        setAvatar(p.avatar_url)
        setLoaded(true)
      })
      .catch((e: unknown) => live && setError(`Your profile could not be loaded: ${(e as Error).message}`))
    return () => {
      live = false
    }
  }, [userId])

  const save = async (e: FormEvent) => {
    e.preventDefault()
    const problem = usernameProblem(username.trim())
    if (problem) return setError(problem)
    setBusy('save')
    setError(null)
    try {
      await saveProfileFields(supabase(), userId, { username, bio })
      bumpActivity()
      notify.success('Profile saved')
    } catch (err) {
      setError((err as Error).message)
    } finally {
      setBusy(null)
    }
  }

  const pickAvatar = async (picked: File | undefined) => {
    if (!picked) return
    setAvatarError(null)
    // Checked before resizing so a huge or wrong file gets its own message.
    const problem = avatarFileProblem(picked)
    if (problem) return setAvatarError(problem)
    setBusy('avatar')
    try {
      const square = await squareAvatar(picked, AVATAR_SIZE_PX)
      const url = await uploadAvatar(supabase(), userId, square)
      setAvatar(url)
      bumpActivity()
      notify.success('Avatar updated')
    } catch (err) {
      setAvatarError((err as Error).message)
    } finally {
      setBusy(null)
      if (file.current) file.current.value = ''
    }
  }

  return (
    <SettingsSection title="Profile" description="How other listeners see you.">
      <div className="flex items-center gap-4">
        <div className="flex h-20 w-20 shrink-0 items-center justify-center overflow-hidden rounded-full border border-line bg-gradient-to-br from-primary/50 to-secondary/50 font-display text-2xl font-black text-bg" data-testid="settings-avatar">
          {avatarSrc ? <img src={avatarSrc} alt="Your avatar" className="h-full w-full object-cover" /> : <span aria-hidden>{username.slice(0, 2).toUpperCase()}</span>}
        </div>
        <div className="space-y-1">
          <label htmlFor={ids.avatar} className={`${quietButtonClass} inline-block cursor-pointer`}>
            {busy === 'avatar' ? 'Uploading…' : 'Upload avatar'}
          </label>
          <input id={ids.avatar} ref={file} type="file" accept="image/png,image/jpeg,image/webp" className="sr-only" disabled={busy !== null}
            onChange={(e) => void pickAvatar(e.target.files?.[0])} />
          <p className="text-xs text-muted">PNG, JPEG or WebP, at most 2 MB; cropped to a {AVATAR_SIZE_PX} px square.</p>
        </div>
      </div>
      <FieldError message={avatarError} />
      <form onSubmit={save} className="space-y-3" aria-label="Profile">
        <div className="space-y-1">
          <label htmlFor={ids.username} className="block text-sm text-fg/90">Username</label>
          <input id={ids.username} className={inputClass} value={username} onChange={(e) => {
            edited.current = true
            setUsername(e.target.value)
          }} maxLength={30} autoComplete="username" disabled={!loaded} />
          <p className="text-xs text-muted">3 to 30 letters, digits, - or _. Your public page is /user/{username.trim() || 'name'}.</p>
        </div>
        <div className="space-y-1">
          <label htmlFor={ids.bio} className="block text-sm text-fg/90">Bio</label>
          <textarea id={ids.bio} className={`${inputClass} min-h-24`} value={bio} onChange={(e) => {
            edited.current = true
            setBio(e.target.value)
          }} aria-describedby={ids.bioCount} disabled={!loaded} />
          <p id={ids.bioCount} className={`text-xs ${bio.length > BIO_MAX ? 'text-red-400' : 'text-muted'}`}>{bio.length}/{BIO_MAX}</p>
        </div>
        <FieldError message={error} />
        <button type="submit" className={buttonClass} disabled={!loaded || busy !== null || bio.length > BIO_MAX}>
          {busy === 'save' ? 'Saving…' : 'Save profile'}
        </button>
      </form>
    </SettingsSection>
  )
}
