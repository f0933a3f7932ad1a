import { describe, expect, it } from 'vitest'
import type { CreationRow } from '../../backend/creations.ts'
import type { Song } from '../../lib/catalogue/song.ts'
import { audioType, creationKind, creationMeta, planCreationSync, songFromCreation } from './creation-record.ts'

const song = (id: string): Song => ({ id, title: id, artist: 'You', duration: '0:03', seconds: 3, image: '/c.svg', audioUrl: `idb:${id}` })
const row = (id: string, uploadedAt: string | null = '2026-12-02T10:00:00Z'): CreationRow => ({
  id,
  kind: creationKind(id),
  title: id,
  artist: 'You',
  image: '/c.svg',
  seconds: 3,
  contentType: 'audio/webm',
  byteSize: 10,
  partCount: 1,
  uploadedAt,
  createdAt: '2026-12-02T10:00:00Z',
})

describe('creation records', () => {
  it('names the kind by the id the app gives each origin', () => {
    expect(['gen-a-1', 'take-1', 'mix-1', 'remix-1', 'upload-1', 'x'].map(creationKind)).toEqual([
      'generated',
      'recording',
      'export',
      'remix',
      'upload',
      'upload',
    ])
  })

  it('keeps the blob’s audio type, sniffs an untyped one, and never sends a cover that is not a same-origin path', async () => {
    expect(await audioType(new Blob([new Uint8Array(4)], { type: 'audio/webm;codecs=opus' }))).toBe('audio/webm;codecs=opus')
    expect(await audioType(new Blob([new TextEncoder().encode('RIFF\0\0\0\0WAVE')]))).toBe('audio/wav')
    expect(await audioType(new Blob([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3])]))).toBe('audio/webm')
    const meta = await creationMeta({ ...song('take-1'), image: 'data:image/png;base64,xx', remixId: 'r1' }, new Blob(['RIFF']))
    expect(meta).toMatchObject({ kind: 'recording', image: '/images/covers/mic-take.svg', remixId: 'r1', byteSize: 4 })
    expect(songFromCreation({ ...row('remix-1'), remixId: 'r1' })).toMatchObject({
      audioUrl: 'idb:remix-1',
      remixId: 'r1',
      duration: '0:03',
    })
  })

  it('plans a sync: claims a visitor’s tracks, sends what the account lacks, adds what it has, drops what another device deleted', () => {
    const plan = planCreationSync({
      userId: 'me',
      local: [
        song('visitor'),
        song('mine-sent'),
        song('mine-unsent'),
        song('mine-deleted-elsewhere'),
        song('theirs'),
        { ...song('cat'), audioUrl: '/a.mp3' },
      ],
      remote: [row('mine-sent'), row('from-other-device'), row('half-uploaded', null)],
      ledger: {
        owners: { 'mine-sent': 'me', 'mine-unsent': 'me', 'mine-deleted-elsewhere': 'me', theirs: 'someone-else' },
        synced: { 'mine-sent': 'me', 'mine-deleted-elsewhere': 'me' },
      },
    })
    expect(plan).toEqual({
      claim: ['visitor'],
      upload: ['visitor', 'mine-unsent'],
      dropLocal: ['mine-deleted-elsewhere'],
      add: [row('from-other-device')],
    })
  })
})
