import type { SupabaseClient } from '@supabase/supabase-js'

// Avatars live in the non-public bucket `avatars` (supabase/schemas/profiles.sql):
// a public bucket is served by URL without RLS, so a private profile's avatar could not be hidden
// there. profiles.avatar_url names the object (with a version for caches); the app downloads it
// through the API, where RLS shows it only to those who may see the profile.

export const AVATAR_BUCKET = 'avatars'

/**
 * The object in the avatars bucket that a stored avatar address names, or null when it names none
 * of ours. Addresses saved before the bucket stopped being public (`/object/public/avatars/…`)
 * name the same object.
 */
export function avatarObjectPath(url: string | null, backendUrl: string): string | null {
  if (!url) return null
  const base = `${backendUrl.replace(/\/+$/, '')}/storage/v1/object/`
  for (const route of ['authenticated', 'public']) {
    const prefix = `${base}${route}/${AVATAR_BUCKET}/`
    if (!url.startsWith(prefix)) continue
    const path = url.slice(prefix.length).split(/[?#]/)[0]!
    return path && !path.split('/').includes('..') ? path : null
  }
  return null
}

/** The address stored for a user's uploaded avatar: the object, and a version so caches refetch. */
export function avatarAddress(db: SupabaseClient, path: string, version: number): string {
  const publicUrl = db.storage.from(AVATAR_BUCKET).getPublicUrl(path).data.publicUrl
  return `${publicUrl.replace('/storage/v1/object/public/', '/storage/v1/object/authenticated/')}?v=${version}`
}

/** The avatar's bytes as the caller may see them, or null (no such object, or a private profile's). */
export async function downloadAvatar(db: SupabaseClient, path: string): Promise<Blob | null> {
  const { data, error } = await db.storage.from(AVATAR_BUCKET).download(path)
  return error ? null : data
}
