import { describe, expect, it } from 'vitest'
import { shortcutFor } from './shortcuts.ts'

const el = (tagName: string, attrs: Record<string, string> = {}, isContentEditable = false) => ({
  tagName,
  isContentEditable,
  getAttribute: (n: string) => attrs[n] ?? null,
})

describe('player keyboard shortcuts', () => {
  it('maps space, arrows and N/P outside text fields', () => {
    const body = el('BODY')
    expect(shortcutFor({ key: ' ', target: body })).toEqual({ kind: 'toggle' })
    expect(shortcutFor({ key: 'ArrowLeft', target: body })).toEqual({ kind: 'seekBy', seconds: -5 })
    expect(shortcutFor({ key: 'ArrowRight', target: body })).toEqual({ kind: 'seekBy', seconds: 5 })
    expect(shortcutFor({ key: 'ArrowUp', target: body })).toEqual({ kind: 'volumeBy', amount: 5 })
    expect(shortcutFor({ key: 'ArrowDown', target: body })).toEqual({ kind: 'volumeBy', amount: -5 })
    expect(shortcutFor({ key: 'N', target: body })).toEqual({ kind: 'next' })
    expect(shortcutFor({ key: 'p', target: body })).toEqual({ kind: 'previous' })
    expect(shortcutFor({ key: 'x', target: body })).toBeNull()
  })

  it('leaves text fields, sliders, menus and modified keys alone; space stays with buttons', () => {
    for (const t of [el('INPUT'), el('TEXTAREA'), el('SELECT'), el('DIV', {}, true), el('DIV', { role: 'slider' })]) {
      expect(shortcutFor({ key: 'n', target: t })).toBeNull()
      expect(shortcutFor({ key: ' ', target: t })).toBeNull()
    }
    expect(shortcutFor({ key: ' ', target: el('BUTTON') })).toBeNull()
    expect(shortcutFor({ key: 'n', target: el('BUTTON') })).toEqual({ kind: 'next' })
    expect(shortcutFor({ key: 'n', ctrlKey: true, target: el('BODY') })).toBeNull()
  })
})
