import { describe, expect, it } from 'vitest'
import type { PublishingRules } from '../../backend/publishing.ts'
import { checkPublishable, type PublishForm } from './publish-limits.ts'

// The server's figures (publishing_rules(), supabase/schemas/catalogue.sql); its own refusals
// with the same wording are in tests/backend/publishing.test.ts.
const RULES: PublishingRules = {
  audio_bucket: 'published-audio',
  cover_bucket: 'published-covers',
  audio_types: ['audio/webm', 'audio/ogg', 'audio/mpeg'],
  cover_types: ['image/png', 'image/jpeg', 'image/webp'],
  bitrate_kbps: 96,
  min_seconds: 5,
  max_seconds: 600,
  max_audio_bytes: 10485760,
  max_cover_bytes: 2097152,
  per_day: 10,
  title_max: 100,
  genres: ['electronic', 'pop', 'rock', 'hip-hop', 'jazz', 'folk', 'classical', 'ambient', 'metal'],
}
const form = (patch: Partial<PublishForm> = {}): PublishForm => ({ title: 'Night Bus', genre: 'jazz', coverFile: null, ...patch })
const check =
  (f: PublishForm, seconds = 60, bytes = 700_000) =>
  () =>
    checkPublishable(f, seconds, bytes, RULES)

describe('checkPublishable', () => {
  it('passes a track inside every limit, at both ends of the length range', () => {
    expect(check(form(), 5)).not.toThrow()
    expect(check(form(), 600, RULES.max_audio_bytes)).not.toThrow()
  })
  it('refuses with the server’s wording', () => {
    expect(check(form(), 4.6)).toThrow('A published track must last 5 s to 10 minutes; this one lasts 5 s.')
    expect(check(form(), 3)).toThrow('A published track must last 5 s to 10 minutes; this one lasts 3 s.')
    expect(check(form(), 601)).toThrow('this one lasts 601 s.')
    expect(check(form({ title: '   ' }))).toThrow('The title must be 1 to 100 characters.')
    expect(check(form({ title: 'x'.repeat(101) }))).toThrow('The title must be 1 to 100 characters.')
    expect(check(form({ genre: 'polka' }))).toThrow(/^Choose one of the genres/)
    expect(check(form(), 60, RULES.max_audio_bytes + 1)).toThrow('The encoded audio is larger than 10 MB.')
  })
  it('checks an uploaded cover’s type and size', () => {
    const cover = (type: string, size: number) => ({ type, size }) as File
    expect(check(form({ coverFile: cover('image/png', 1000) }))).not.toThrow()
    expect(check(form({ coverFile: cover('image/gif', 1000) }))).toThrow('The cover must be a PNG, JPEG or WebP image.')
    expect(check(form({ coverFile: cover('image/png', RULES.max_cover_bytes + 1) }))).toThrow('The cover image is larger than 2 MB.')
  })
})
