import { afterEach, describe, expect, it, vi } from 'vitest'
import { deviceSetting } from './device-setting.ts'

const parseLevel = (text: string | null) => (text === 'low' || text === 'high' ? text : 'mid')

function memoryStorage(failing: 'none' | 'reads' | 'writes' = 'none'): Storage {
  const items = new Map<string, string>()
  return {
    getItem: (k: string) => {
      if (failing === 'reads') throw new Error('SecurityError')
      return items.get(k) ?? null
    },
    setItem: (k: string, v: string) => {
      if (failing === 'writes') throw new Error('QuotaExceededError')
      items.set(k, v)
    },
    removeItem: (k: string) => void items.delete(k),
    clear: () => items.clear(),
    key: () => null,
    get length() {
      return items.size
    },
  }
}

afterEach(() => vi.unstubAllGlobals())

describe('a setting kept on this device', () => {
  it('reads back what it wrote, and a missing or foreign value as the default', () => {
    vi.stubGlobal('localStorage', memoryStorage())
    const level = deviceSetting('test.level', parseLevel, 'level')
    expect(level.read()).toBe('mid')
    level.write('high')
    expect(localStorage.getItem('test.level')).toBe('high')
    expect(level.read()).toBe('high')
    localStorage.setItem('test.level', '{"hand":"edited"}')
    expect(level.read()).toBe('mid')
  })

  it('gives the default when storage refuses reads, and keeps going with a warning when it refuses writes', () => {
    vi.stubGlobal('localStorage', memoryStorage('reads'))
    expect(deviceSetting('test.level', parseLevel, 'level').read()).toBe('mid')
    vi.stubGlobal('localStorage', memoryStorage('writes'))
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(() => deviceSetting('test.level', parseLevel, 'level').write('low')).not.toThrow()
    expect(warn).toHaveBeenCalledWith('[player] could not save the level', expect.any(Error))
    warn.mockRestore()
  })
})
