import { describe, expect, it } from 'vitest'
import { createActor, waitFor } from 'xstate'
import type { MintInput } from '../../backend/web3.ts'
import { createMintMachine, INSUFFICIENT, isSafeImageUrl, MISSING, type MintDraft } from './mint-machine.ts'

const draft: MintDraft = { blockchain: 'ethereum', name: 'N', description: 'D', image: 'https://x/i.png', royalties: 5 }

describe('mint machine', () => {
  it('validates as the reference, refuses unsafe image schemes, and mints with a fresh client key', async () => {
    const calls: MintInput[] = []
    const actor = createActor(
      createMintMachine({
        mint: async (input) => (calls.push(input), { request: { id: 'r', status: 'completed' } as never, balance: 50 }),
      }),
    ).start()
    actor.send({ type: 'MINT', input: { ...draft, description: ' ' }, balance: 150 })
    expect(actor.getSnapshot().context.error).toEqual(MISSING)
    actor.send({ type: 'MINT', input: draft, balance: 99 })
    expect(actor.getSnapshot().context.error).toEqual(INSUFFICIENT)
    actor.send({ type: 'MINT', input: { ...draft, image: 'javascript:alert(1)' }, balance: 150 })
    expect(actor.getSnapshot().context.error?.title).toBe('Image Error')
    expect(calls).toHaveLength(0)
    actor.send({ type: 'MINT', input: draft, balance: 150 })
    await waitFor(actor, (s) => s.matches('minted'))
    expect(calls).toHaveLength(1)
    expect(calls[0]!.client_key).toMatch(/^[A-Za-z0-9_-]{8,}$/)
  })

  it("a server refusal is 'Error minting NFT' with its message, or 'Something went wrong'", async () => {
    const actor = createActor(createMintMachine({ mint: () => Promise.reject(new Error('Provider for bitcoin not initialized')) })).start()
    actor.send({ type: 'MINT', input: draft, balance: 150 })
    expect((await waitFor(actor, (s) => s.matches('failed'))).context.error).toEqual({
      title: 'Error minting NFT',
      description: 'Provider for bitcoin not initialized',
    })
    // A new click after a failure mints again (it is not swallowed by the failed state).
    actor.send({ type: 'MINT', input: draft, balance: 150 })
    expect(actor.getSnapshot().value).toBe('minting')
    const blank = createActor(createMintMachine({ mint: () => Promise.reject(new Error('')) })).start()
    blank.send({ type: 'MINT', input: draft, balance: 150 })
    expect((await waitFor(blank, (s) => s.matches('failed'))).context.error?.description).toBe('Something went wrong')
    expect(isSafeImageUrl('data:image/png;base64,AAAA')).toBe(true)
    expect(isSafeImageUrl('file:///etc/passwd')).toBe(false)
  })
})
