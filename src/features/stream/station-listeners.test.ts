import { describe, expect, it } from 'vitest'
import type { StationState } from '../../engine/station/station-player.ts'
import { createStationListeners, listenersTopic, useStationListeners } from './station-listeners.ts'

const stopped: StationState = { status: 'stopped', current: null, next: null, position: 0, steer: {}, skipped: 0, error: null }

/** A station whose state the test sets, and a presence backend that records what it was asked. */
function setup() {
  const subscribers = new Set<(s: StationState) => void>()
  const station = {
    state: stopped,
    subscribe(listener: (s: StationState) => void) {
      subscribers.add(listener)
      listener(station.state)
      return () => subscribers.delete(listener)
    },
  }
  const set = (patch: Partial<StationState>) => {
    station.state = { ...station.state, ...patch }
    for (const l of subscribers) l(station.state)
  }
  const rooms: { topic: string; present: boolean[]; closed: boolean; count: (n: number) => void }[] = []
  const join = (topic: string, count: (n: number) => void) => {
    const room = { topic, present: [] as boolean[], closed: false, count }
    rooms.push(room)
    return { setPresent: (p: boolean) => room.present.push(p), close: () => (room.closed = true) }
  }
  return { station, set, rooms, listeners: createStationListeners(station, join) }
}

describe('who is listening to CUBE Radio now (Realtime presence)', () => {
  it('opens no room for a visitor who neither plays the station nor has its page open', () => {
    const { rooms, set } = setup()
    set({ position: 3 })
    expect(rooms).toEqual([])
  })

  it('the open page watches the room without being present; playing makes this tab present, stopping takes it out', () => {
    const { rooms, set, listeners } = setup()
    const release = listeners.watch()
    expect(rooms.map((r) => r.topic)).toEqual(['radio:any:any'])
    expect(rooms[0]!.present.at(-1)).toBe(false)
    set({ status: 'tuning' })
    set({ status: 'playing' })
    expect(rooms[0]!.present.at(-1)).toBe(true)
    rooms[0]!.count(3)
    expect(useStationListeners.getState().count).toBe(3)
    set({ status: 'stopped' })
    expect(rooms[0]!.present.at(-1)).toBe(false)
    expect(rooms[0]!.closed).toBe(false)
    // Leaving the page with the station stopped closes the room and forgets the count.
    release()
    expect(rooms[0]!.closed).toBe(true)
    expect(useStationListeners.getState().count).toBeNull()
  })

  it('the station playing keeps this tab present after the page is left', () => {
    const { rooms, set, listeners } = setup()
    const release = listeners.watch()
    set({ status: 'playing' })
    release()
    expect(rooms).toHaveLength(1)
    expect(rooms[0]!.closed).toBe(false)
    expect(rooms[0]!.present.at(-1)).toBe(true)
  })

  it('each steer is its own audience: a new steer moves this tab to that room, and the old room’s late counts are ignored', () => {
    const { rooms, set, listeners } = setup()
    listeners.watch()
    set({ status: 'playing' })
    rooms[0]!.count(5)
    set({ steer: { mood: 'chill', genre: 'jazz' } })
    expect(rooms.map((r) => [r.topic, r.closed])).toEqual([
      ['radio:any:any', true],
      [listenersTopic({ mood: 'chill', genre: 'jazz' }), false],
    ])
    expect(rooms[1]!.topic).toBe('radio:chill:jazz')
    expect(rooms[1]!.present.at(-1)).toBe(true)
    expect(useStationListeners.getState().count).toBeNull()
    rooms[0]!.count(9)
    expect(useStationListeners.getState().count).toBeNull()
    rooms[1]!.count(2)
    expect(useStationListeners.getState().count).toBe(2)
  })

  it('stop() leaves the room', () => {
    const { rooms, set, listeners } = setup()
    set({ status: 'playing' })
    listeners.stop()
    expect(rooms[0]!.closed).toBe(true)
  })
})
