import { describe, expect, it } from 'vitest'
import { createActor, waitFor } from 'xstate'
import { createRemixBurnMachine, INSUFFICIENT_MESSAGE, LOGIN_MESSAGE, type RemixBurnDeps } from './remix-burn-machine.ts'

/** A fake of the server's rules (one debit per attempt key, one refund per remix), plus a render the test fails or finishes. */
function world(balance = 100) {
  const state = { balance, debits: 0, refunds: 0, keys: new Map<string, string>(), completed: new Set<string>(), rendered: [] as string[] }
  let keySeq = 0
  let renderOutcome: 'ok' | 'fail' = 'ok'
  const deps: RemixBurnDeps = {
    newAttemptKey: () => `attempt-key-${++keySeq}`,
    burn: async (_source, key) => {
      const known = state.keys.get(key)
      if (known) return { remix_id: known, balance: state.balance, status: 'burned' }
      if (state.balance < 50) throw new Error('insufficient_balance')
      state.balance -= 50
      state.debits++
      state.keys.set(key, `remix-${key}`)
      return { remix_id: `remix-${key}`, balance: state.balance, status: 'burned' }
    },
    render: async ({ remixId, onProgress }) => {
      state.rendered.push(remixId)
      onProgress(0.5)
      if (renderOutcome === 'fail') throw new Error('render failed')
      return new Blob(['wav'])
    },
    complete: async (id) => void state.completed.add(id),
    refund: async () => {
      state.balance += 50
      state.refunds++
      return { balance: state.balance }
    },
  }
  return { state, deps, failRenders: (fail: boolean) => (renderOutcome = fail ? 'fail' : 'ok') }
}

describe('remix-burn machine', () => {
  it('idle → confirming → burning → rendering → remixed: one debit, remix completed, result kept', async () => {
    const w = world()
    const actor = createActor(createRemixBurnMachine(w.deps)).start()
    actor.send({ type: 'CREATE', source: 'neon-drift', balance: 100, signedIn: true })
    expect(actor.getSnapshot().value).toBe('confirming')
    actor.send({ type: 'CONFIRM' })
    const done = await waitFor(actor, (s) => s.matches('remixed'))
    expect(done.context.balance).toBe(50)
    expect(done.context.result).toBeInstanceOf(Blob)
    expect(w.state.debits).toBe(1)
    expect(w.state.completed.size).toBe(1)
    // The render knows which server remix it is (the Library track keeps it for publishing: lineage).
    expect(w.state.rendered).toEqual([...w.state.completed])
  })

  it('a failed render retried under the same key is not charged twice; giving up refunds once', async () => {
    const w = world()
    w.failRenders(true)
    const actor = createActor(createRemixBurnMachine(w.deps)).start()
    actor.send({ type: 'CREATE', source: 'neon-drift', balance: 100, signedIn: true })
    actor.send({ type: 'CONFIRM' })
    await waitFor(actor, (s) => s.matches('failed'))
    const key = actor.getSnapshot().context.attemptKey
    actor.send({ type: 'RETRY' })
    await waitFor(actor, (s) => s.matches('failed') && s.context.error !== null)
    expect(actor.getSnapshot().context.attemptKey).toBe(key)
    expect(w.state.debits).toBe(1)
    actor.send({ type: 'REFUND' })
    const back = await waitFor(actor, (s) => s.matches('idle'))
    expect(back.context.balance).toBe(100)
    expect(w.state).toMatchObject({ debits: 1, refunds: 1, balance: 100 })
  })

  it('below 50 CUBE or signed out, CREATE never reaches burning: a clear message, nothing burned', () => {
    const w = world(30)
    const actor = createActor(createRemixBurnMachine(w.deps)).start()
    actor.send({ type: 'CREATE', source: 'neon-drift', balance: 30, signedIn: true })
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().context.error).toBe(INSUFFICIENT_MESSAGE)
    actor.send({ type: 'CREATE', source: 'neon-drift', balance: null, signedIn: false })
    expect(actor.getSnapshot().context.error).toBe(LOGIN_MESSAGE)
    expect(w.state.debits).toBe(0)
  })

  it('a stale client balance above 50 meets the server refusal: back to idle with the message, nothing burned', async () => {
    const w = world(30)
    const actor = createActor(createRemixBurnMachine(w.deps)).start()
    actor.send({ type: 'CREATE', source: 'neon-drift', balance: 100, signedIn: true })
    actor.send({ type: 'CONFIRM' })
    const s = await waitFor(actor, (x) => x.matches('idle'))
    expect(s.context.error).toBe(INSUFFICIENT_MESSAGE)
    expect(w.state).toMatchObject({ debits: 0, balance: 30 })
  })

  it('RESUME after a reload: the kept attempt key is answered by the server without a second debit, and the render completes', async () => {
    const w = world()
    const first = createActor(createRemixBurnMachine(w.deps)).start()
    first.send({ type: 'CREATE', source: 'neon-drift', balance: 100, signedIn: true })
    const key = first.getSnapshot().context.attemptKey!
    first.send({ type: 'CONFIRM' })
    await waitFor(first, (s) => s.matches('rendering') || s.matches('remixed'))
    first.stop() // the tab reloads mid-render
    const second = createActor(createRemixBurnMachine(w.deps)).start()
    second.send({ type: 'RESUME', source: 'neon-drift', attemptKey: key })
    await waitFor(second, (s) => s.matches('remixed'))
    expect(w.state.debits).toBe(1)
    expect(w.state.balance).toBe(50)
    expect(second.getSnapshot().context.attemptKey).toBe(key)
  })
})
