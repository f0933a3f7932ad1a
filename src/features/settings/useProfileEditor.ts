import { useEffect, useRef, useState, type FormEvent } from 'react'
import { saveProfileFields, uploadAvatar } from '../../backend/account-settings.ts'
import { supabase } from '../../backend/client.ts'
import { fetchProfile } from '../../backend/profile.ts'
import { AVATAR_SIZE_PX, avatarFileProblem, usernameProblem } from '../../lib/profile-rules.ts'
import { notify } from '../../lib/notify.ts'
import { useAvatarSrc } from '../../domain/profile/use-avatar-src.ts'
import { squareAvatar } from './avatar-image.ts'
import { ownProfileChanged } from '../../domain/profile/profile-keys.ts'

/**
 * The Profile form's data and actions: loads the profile, keeps what the user types, saves the
 * username and bio (the rules checked first, the server deciding), uploads a cropped avatar.
 */
export function useProfileEditor(userId: string) {
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
      void ownProfileChanged(userId)
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
      void ownProfileChanged(userId)
      notify.success('Avatar updated')
    } catch (err) {
      setAvatarError((err as Error).message)
    } finally {
      setBusy(null)
      if (file.current) file.current.value = ''
    }
  }

  // What the user types wins over a late load of the profile.
  const editUsername = (value: string) => {
    edited.current = true
    setUsername(value)
  }
  const editBio = (value: string) => {
    edited.current = true
    setBio(value)
  }
  return { loaded, username, editUsername, bio, editBio, avatarSrc, error, avatarError, busy, file, save, pickAvatar }
}
