import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { applyAwarenessUpdate, Awareness, encodeAwarenessUpdate } from 'y-protocols/awareness'
import {
  boundedPresence,
  MAX_AWARENESS_MESSAGE_BYTES,
  MAX_PRESENCE_BYTES,
  MAX_PRESENCE_NOTES,
  peerPosition,
  peersOf,
  refuseAwarenessUpdate,
  sanitizePresence,
  type Presence,
} from './presence.ts'

// Presence as a peer sends it and as this studio reads it: bounded, and junk shows as nothing.

const full: Presence = {
  name: 'mia',
  colour: 'hsl(200 80% 65%)',
  selectedTrackId: 't-1',
  clip: { trackId: 't-1', clipId: 'c-1' },
  notes: ['n-1'],
  playhead: { seconds: 12.5, playing: true },
  touching: { trackId: null, control: 'volume' },
}

describe('sanitizePresence', () => {
  it('keeps a well-formed presence as it is', () => {
    expect(sanitizePresence(full)).toEqual(full)
  })

  it('reads a nameless state as nobody, and malformed or oversized fields as none', () => {
    expect(sanitizePresence({ colour: '#fff' })).toBeNull()
    expect(sanitizePresence('mia')).toBeNull()
    expect(
      sanitizePresence({
        name: 'mia',
        colour: 'url(javascript:alert(1))',
        selectedTrackId: 'x'.repeat(101),
        clip: { trackId: 't-1' },
        notes: [...Array.from({ length: 40 }, (_, i) => `n-${i}`), 7],
        playhead: { seconds: Number.NaN, playing: true },
        touching: { trackId: 3, control: 'volume' },
      }),
    ).toEqual({
      name: 'mia',
      colour: '#888888',
      selectedTrackId: null,
      clip: null,
      notes: Array.from({ length: MAX_PRESENCE_NOTES }, (_, i) => `n-${i}`),
      playhead: null,
      touching: null,
    })
    expect(sanitizePresence({ name: 'mia', playhead: { seconds: -4 } })?.playhead).toEqual({ seconds: 0, playing: false })
  })

  it('cuts this creator’s own presence to the bounds before it goes out', () => {
    const p = boundedPresence({ ...full, name: 'n'.repeat(100), notes: Array.from({ length: 100 }, (_, i) => `note-${i}`) })
    expect(p.name).toHaveLength(40)
    expect(p.notes).toHaveLength(MAX_PRESENCE_NOTES)
    expect(JSON.stringify(p).length).toBeLessThan(MAX_PRESENCE_BYTES)
  })
})

describe('peers and their playheads', () => {
  it('lists the others (never this creator), sorted, with when each was heard', () => {
    const a = new Awareness(new Y.Doc())
    const b = new Awareness(new Y.Doc())
    a.setLocalState({ name: 'ana' })
    b.setLocalState(full)
    const update = encodeAwarenessUpdate(b, [b.clientID])
    expect(refuseAwarenessUpdate(a, update)).toBeNull()
    applyAwarenessUpdate(a, update, 'test')
    expect(peersOf(a, new Map([[b.clientID, 1234]]))).toEqual([{ ...full, clientId: b.clientID, heardAt: 1234 }])
    a.destroy()
    b.destroy()
  })

  it('a paused playhead stays; a playing one moves on by the time since it was heard', () => {
    expect(peerPosition({ playhead: { seconds: 3, playing: false }, heardAt: 0 }, 5000)).toBe(3)
    expect(peerPosition({ playhead: { seconds: 3, playing: true }, heardAt: 1000 }, 3500)).toBe(5.5)
    expect(peerPosition({ playhead: null, heardAt: 0 }, 0)).toBeNull()
  })
})

describe('refuseAwarenessUpdate', () => {
  it('refuses a message over the byte limit', () => {
    const a = new Awareness(new Y.Doc())
    expect(refuseAwarenessUpdate(a, new Uint8Array(MAX_AWARENESS_MESSAGE_BYTES + 1))).toMatch(/^a presence message of 8193 bytes/)
    a.destroy()
  })
})
