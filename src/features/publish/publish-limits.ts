/**
 * The server's publishing limits (publishing_rules()) checked on the client first, so the user
 * hears why before anything is encoded or uploaded; the server checks again and decides.
 */
import type { PublishingRules } from '../../backend/publishing.ts'

export interface PublishForm {
  title: string
  genre: string
  /** An uploaded image, or null for a generated cover. */
  coverFile: File | null
}

export class PublishRefused extends Error {
  override name = 'PublishRefused'
}

/** The limits the server enforces, checked first so the user hears why before anything uploads. */
export function checkPublishable(form: PublishForm, seconds: number, bytes: number, rules: PublishingRules): void {
  const title = form.title.trim()
  if (title.length === 0 || title.length > rules.title_max)
    throw new PublishRefused(`The title must be 1 to ${rules.title_max} characters.`)
  if (!rules.genres.includes(form.genre)) throw new PublishRefused(`Choose one of the genres: ${rules.genres.join(', ')}.`)
  if (seconds < rules.min_seconds || seconds > rules.max_seconds)
    throw new PublishRefused(
      `A published track must last ${rules.min_seconds} s to ${rules.max_seconds / 60} minutes; this one lasts ${Math.round(seconds)} s.`,
    )
  if (bytes > rules.max_audio_bytes) throw new PublishRefused(`The encoded audio is larger than ${rules.max_audio_bytes / 1048576} MB.`)
  if (form.coverFile) {
    if (!rules.cover_types.includes(form.coverFile.type)) throw new PublishRefused('The cover must be a PNG, JPEG or WebP image.')
    if (form.coverFile.size > rules.max_cover_bytes)
      throw new PublishRefused(`The cover image is larger than ${rules.max_cover_bytes / 1048576} MB.`)
  }
}
