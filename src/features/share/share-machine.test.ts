import { describe, expect, it } from 'vitest'
import { createActor, waitFor } from 'xstate'
import type { ShareAnswer } from '../../backend/sharing.ts'
import { LOCK_MS, MINING_MS, createShareMachine, reasonText, type ShareDeps } from './share-machine.ts'

const answer = (credited: number, reason: string): ShareAnswer => ({
  credited,
  reason,
  balance: 100 + credited,
  shares_today: 1,
  daily_cap: 10,
})

function harness(credit: ShareDeps['credit']) {
  let clock = 0
  const waits: number[] = []
  const deps: ShareDeps = { credit, now: () => clock, wait: async (ms) => void waits.push(ms) }
  const actor = createActor(createShareMachine(deps)).start()
  return { actor, waits, advance: (ms: number) => (clock += ms) }
}

const REQ = { itemType: 'song' as const, itemId: 'neon-drift', platform: 'twitter' as const }

describe('share machine', () => {
  it('idle → mining (at least the 1.5 s indicator) → credited with the server answer', async () => {
    const { actor, waits } = harness(async () => answer(10, 'credited'))
    expect(actor.getSnapshot().value).toBe('idle')
    actor.send({ type: 'SHARE', request: REQ })
    expect(actor.getSnapshot().value).toBe('mining')
    await waitFor(actor, (s) => s.value !== 'mining')
    expect(actor.getSnapshot().value).toBe('credited')
    expect(actor.getSnapshot().context.answer?.credited).toBe(10)
    expect(waits).toEqual([MINING_MS])
  })

  it('not credited carries the reason; the platform stays locked 3 s, others are free', async () => {
    let n = 0
    const { actor, advance } = harness(async () => (n++ === 0 ? answer(10, 'credited') : answer(0, 'already_shared_today')))
    actor.send({ type: 'SHARE', request: REQ })
    await waitFor(actor, (s) => s.value === 'credited')
    actor.send({ type: 'SHARE', request: REQ })
    expect(actor.getSnapshot().value).toBe('credited')
    advance(LOCK_MS - 1)
    actor.send({ type: 'SHARE', request: REQ })
    expect(actor.getSnapshot().value).toBe('credited')
    advance(1)
    actor.send({ type: 'SHARE', request: REQ })
    await waitFor(actor, (s) => s.value === 'notCredited')
    expect(actor.getSnapshot().context.reason).toBe('already_shared_today')
    expect(reasonText('already_shared_today', null)).toMatch(/Already shared today/)
    actor.send({ type: 'SHARE', request: { ...REQ, platform: 'qr' } })
    expect(actor.getSnapshot().value).toBe('mining')
  })

  it('a failed call is not credited with the error as reason', async () => {
    const { actor } = harness(async () => {
      throw new Error('offline')
    })
    actor.send({ type: 'SHARE', request: REQ })
    await waitFor(actor, (s) => s.value === 'notCredited')
    expect(actor.getSnapshot().context).toMatchObject({ reason: 'error', error: 'offline' })
    expect(reasonText('error', 'offline')).toBe('Share not credited: offline')
  })
})
