import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { deleteRemixDraft, getRemixDraft, listRemixDrafts, saveRemixDraft, type RemixDraft } from './remix-drafts.ts'
import { defaultRemixSettings } from './remix-settings.ts'

const draft = (id: string, savedAt: number, over: Partial<RemixDraft> = {}): RemixDraft => ({
  id,
  name: `Draft ${id}`,
  source: { ref: 'neon-drift', title: 'Neon Drift', audioUrl: '/audio/neon-drift.mp3' },
  settings: { ...defaultRemixSettings(), harmonize: { on: true, mix: 35 } },
  loop: { start: 4, end: 12 },
  savedAt,
  ...over,
})

describe('remix drafts (IndexedDB)', () => {
  it('saves the whole state, lists newest first, reopens it and deletes it', async () => {
    await saveRemixDraft(draft('a', 1000))
    await saveRemixDraft(
      draft('b', 2000, { source: { ref: 'file:take.wav', title: 'take', file: new Blob([new Uint8Array([1, 2, 3])]) }, loop: null }),
    )
    const list = await listRemixDrafts()
    expect(list.map((d) => d.id)).toEqual(['b', 'a'])
    const a = await getRemixDraft('a')
    expect(a?.settings.harmonize).toEqual({ on: true, mix: 35 })
    expect(a?.loop).toEqual({ start: 4, end: 12 })
    const b = await getRemixDraft('b')
    expect(b?.source.file).toBeInstanceOf(Blob)
    expect(b?.source.file?.size).toBe(3)
    await saveRemixDraft({ ...draft('a', 3000), name: 'Renamed' })
    expect((await listRemixDrafts()).map((d) => d.name)).toEqual(['Renamed', 'Draft b'])
    await deleteRemixDraft('a')
    expect(await getRemixDraft('a')).toBeNull()
  })

  it('a damaged record is skipped, and damaged settings fall back to defaults', async () => {
    await saveRemixDraft({ ...draft('c', 5000), settings: { effects: { reverb: 'loud', delay: 900 } } as never })
    const c = await getRemixDraft('c')
    expect(c?.settings.effects).toEqual({ reverb: 50, delay: 100, distortion: 50 })
    await saveRemixDraft({ id: 'd' } as never)
    expect((await listRemixDrafts()).some((d) => d.id === 'd')).toBe(false)
  })
})
