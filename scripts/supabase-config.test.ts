import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { migratedPglite } from './support/migrated-pglite.ts'

// supabase/config.toml's Storage buckets are the ones the migrations leave on a database, with the
// same public flag, size limit and types: `supabase start` and a hosted `db push` agree.

const config = readFileSync(join(import.meta.dirname, '..', 'supabase', 'config.toml'), 'utf8')
const UNITS: Record<string, number> = { KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 }

function configBuckets() {
  const buckets: Record<string, { public: boolean; file_size_limit: number; allowed_mime_types: string[] }> = {}
  for (const [, name, body] of config.matchAll(/^\[storage\.buckets\.([a-z0-9-]+)\]\n((?:[a-z_]+ = .+\n)+)/gm)) {
    const value = (key: string) => new RegExp(`^${key} = (.+)$`, 'm').exec(body!)?.[1] ?? ''
    const [, amount, unit] = /^"(\d+)(KiB|MiB|GiB)"$/.exec(value('file_size_limit')) ?? []
    buckets[name!] = {
      public: value('public') === 'true',
      file_size_limit: Number(amount) * UNITS[unit!]!,
      allowed_mime_types: JSON.parse(value('allowed_mime_types')) as string[],
    }
  }
  return buckets
}

describe('supabase/config.toml', () => {
  it('lists the Storage buckets the migrations create, with their settings', async () => {
    const db = await migratedPglite()
    const { rows } = await db.query<{ id: string; public: boolean; file_size_limit: number; allowed_mime_types: string[] }>(
      'select id, public, file_size_limit::int as file_size_limit, allowed_mime_types from storage.buckets order by id',
    )
    await db.close()
    expect(rows.length).toBeGreaterThan(3)
    expect(configBuckets()).toEqual(Object.fromEntries(rows.map(({ id, ...settings }) => [id, settings])))
  }, 120_000)

  it('raises the global object limit to the largest bucket limit', () => {
    const largest = Math.max(...Object.values(configBuckets()).map((b) => b.file_size_limit))
    const [, amount, unit] = /^file_size_limit = "(\d+)(MiB|GiB)"$/m.exec(config.slice(config.indexOf('[storage]'))) ?? []
    expect(Number(amount) * UNITS[unit!]!).toBe(largest)
  })
})
