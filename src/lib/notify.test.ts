import { describe, expect, it } from 'vitest'
import { notify, subscribeNotices, type Notice } from './notify.ts'

describe('notify', () => {
  it('holds notices raised before the notifier subscribes, then delivers each once, in order', () => {
    notify.success('first', { description: 'd' })
    notify('second')
    const seen: Notice[] = []
    const stop = subscribeNotices((n) => seen.push(n))
    notify.error('third', { id: 'x' })
    stop()
    notify('after')
    expect(seen).toEqual([
      { kind: 'success', title: 'first', description: 'd' },
      { kind: 'message', title: 'second' },
      { kind: 'error', title: 'third', id: 'x' },
    ])
    const late: Notice[] = []
    subscribeNotices((n) => late.push(n))()
    expect(late.map((n) => n.title)).toEqual(['after'])
  })
})
