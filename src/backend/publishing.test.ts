import { beforeEach, describe, expect, it, vi } from 'vitest'
import { publishAudio, type PublishingRules } from './publishing.ts'

// Publishing a Library track rendered from a remix records the remix's source right after
// publish_song() (remix lineage; the server's side: tests/backend/remix-lineage.test.ts).

const calls: { name: string; args: Record<string, unknown> }[] = []
let lineageRefused = false
vi.mock('./client.ts', () => ({
  supabase: () => ({
    storage: { from: () => ({ upload: async () => ({ error: null }), remove: async () => ({ error: null }) }) },
    functions: {
      invoke: async (name: string, options: { body: Record<string, unknown> }) => {
        calls.push({ name, args: options.body })
        return { data: { duration_seconds: 30 }, error: null }
      },
    },
    rpc: async (name: string, args: Record<string, unknown>) => {
      calls.push({ name, args })
      if (name === 'publish_song') return { data: { id: 'pub-1', slug: 'tune', repeated: false }, error: null }
      if (name === 'record_remix_source' && lineageRefused) return { data: null, error: { message: 'This is not one of your remixes.' } }
      return { data: { remix_of: 'neon-drift', recorded: true }, error: null }
    },
  }),
}))

const RULES = { audio_bucket: 'published-audio', cover_bucket: 'published-covers' } as PublishingRules
const input = (remixId?: string) => ({
  userId: 'u-1',
  audio: new Blob([new Uint8Array(10)], { type: 'audio/webm' }),
  cover: null,
  title: 'Tune',
  genre: 'ambient',
  attemptKey: 'attempt-key-1',
  remixId,
})

beforeEach(() => {
  calls.length = 0
  lineageRefused = false
})

describe('publishAudio and remix lineage', () => {
  it('a remix track: publish_song, then record_remix_source with the new song and the remix', async () => {
    expect(await publishAudio(input('r-1'), RULES)).toEqual({ id: 'pub-1', slug: 'tune' })
    expect(calls.map((c) => c.name)).toEqual(['measure-audio', 'publish_song', 'record_remix_source'])
    expect(calls[2]!.args).toEqual({ p_song_id: 'pub-1', p_remix_id: 'r-1' })
  })

  it('any other track records no lineage', async () => {
    await publishAudio(input(), RULES)
    expect(calls.map((c) => c.name)).toEqual(['measure-audio', 'publish_song'])
  })

  it('the server measures the uploaded file first; publish_song is sent no length of ours', async () => {
    await publishAudio(input(), RULES)
    expect(calls[0]!.args).toEqual({ path: expect.stringMatching(/^u-1\/[0-9a-f-]{36}\.webm$/) })
    expect(Object.keys(calls[1]!.args).sort()).toEqual(['p_attempt_key', 'p_audio_path', 'p_cover_path', 'p_genre', 'p_title'])
  })

  it('a refused link costs only the lineage: the song is published', async () => {
    lineageRefused = true
    const warn = vi.spyOn(console, 'warn').mockImplementationOnce(() => {})
    expect(await publishAudio(input('r-2'), RULES)).toEqual({ id: 'pub-1', slug: 'tune' })
    expect(warn).toHaveBeenCalledWith('[publish] the remix source was not recorded:', 'This is not one of your remixes.')
  })
})
