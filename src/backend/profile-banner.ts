import type { SupabaseClient } from '@supabase/supabase-js'

// A user's uploaded profile banner: one object `<user id>/banner` in the public Storage bucket
// `profile-banners` (supabase/schemas/storage.sql, which enforces the same size
// and types server-side). Every call takes the supabase-js client so Node tests use it as is.

export const PROFILE_BANNER_BUCKET = 'profile-banners'
/** 2 MiB: the bucket's file_size_limit. */
export const BANNER_MAX_BYTES = 2 * 1024 * 1024
/** The bucket's allowed_mime_types. */
export const BANNER_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const

export const bannerPath = (userId: string) => `${userId}/banner`

/** Why a file cannot be a banner, in words for the user; null when it can. */
export function bannerFileProblem(file: { type: string; size: number }): string | null {
  if (!(BANNER_TYPES as readonly string[]).includes(file.type)) return 'A banner must be a PNG, JPEG or WebP image.'
  if (file.size > BANNER_MAX_BYTES) return `A banner can be at most 2 MB; this file is ${(file.size / 1024 / 1024).toFixed(1)} MB.`
  if (file.size === 0) return 'This file is empty.'
  return null
}

const isNotFound = (error: Error) => {
  const e = error as { status?: number; statusCode?: string }
  return e.statusCode === '404' || e.status === 404 || /not found/i.test(error.message)
}

/** The user's uploaded banner, or null when they have none (the app then draws one). */
export async function fetchBanner(db: SupabaseClient, userId: string): Promise<Blob | null> {
  // Asked first, so a user without a banner costs no failed request (and no console error).
  const listed = await db.storage.from(PROFILE_BANNER_BUCKET).list(userId, { search: 'banner', limit: 10 })
  if (listed.error) throw listed.error
  if (!listed.data.some((o) => o.name === 'banner' && o.id)) return null
  const { data, error } = await db.storage.from(PROFILE_BANNER_BUCKET).download(bannerPath(userId))
  if (error) {
    if (isNotFound(error)) return null
    throw error
  }
  return data
}

/** Replaces the user's banner; refuses (throws) before sending a file the bucket would refuse. */
export async function uploadBanner(db: SupabaseClient, userId: string, file: Blob): Promise<void> {
  const problem = bannerFileProblem(file)
  if (problem) throw new Error(problem)
  const { error } = await db.storage
    .from(PROFILE_BANNER_BUCKET)
    .upload(bannerPath(userId), file, { upsert: true, contentType: file.type, cacheControl: 'no-cache' })
  if (error) throw error
}

/** Removes the uploaded banner (the generated one shows again). */
export async function removeBanner(db: SupabaseClient, userId: string): Promise<void> {
  const { error } = await db.storage.from(PROFILE_BANNER_BUCKET).remove([bannerPath(userId)])
  if (error) throw error
}
