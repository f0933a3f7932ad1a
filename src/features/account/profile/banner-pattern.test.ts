import { describe, expect, it } from 'vitest'
import { THEME_PRESETS } from '../../../config/theme-presets.ts'
import { bannerShapes, bannerSvg, prng, seedOf } from './banner-pattern.ts'

const cyber = THEME_PRESETS.cyber

/** Every tag closes in order and every attribute value is quoted: well-formed XML, minimally. */
function wellFormed(svg: string): boolean {
  const stack: string[] = []
  const tag = /<(\/?)([a-z]+)((?:\s+[A-Za-z-:]+="[^"<]*")*)\s*(\/?)>/gy
  let index = 0
  for (let m = tag.exec(svg); m; m = tag.exec(svg)) {
    index = tag.lastIndex
    const [, closing, name, , selfClosing] = m
    if (closing) {
      if (stack.pop() !== name) return false
    } else if (!selfClosing) stack.push(name!)
  }
  return index === svg.length && stack.length === 0
}

describe('generated profile banner', () => {
  it('is deterministic: the same username gives the same banner', () => {
    expect(bannerSvg('neo', cyber)).toBe(bannerSvg('neo', cyber))
    expect(bannerShapes('trinity', cyber)).toEqual(bannerShapes('trinity', cyber))
  })

  it('differs between usernames, even close ones', () => {
    const names = ['neo', 'Neo', 'neo2', 'trinity', 'morpheus', '']
    const svgs = new Set(names.map((n) => bannerSvg(n, cyber)))
    expect(svgs.size).toBe(names.length)
  })

  it('has a skyline, traces and lit windows: dozens of shapes, all inside the view box', () => {
    const shapes = bannerShapes('neo', cyber)
    expect(shapes.length).toBeGreaterThan(40)
    expect(shapes.some((s) => s.kind === 'polyline')).toBe(true)
    for (const s of shapes) {
      if (s.kind === 'rect') expect(s.x).toBeLessThanOrEqual(1200)
      if (s.kind === 'circle') expect(s.cy).toBeLessThanOrEqual(240)
    }
  })

  it('takes every colour from the theme, and a different theme recolours it', () => {
    for (const preset of Object.values(THEME_PRESETS)) {
      const svg = bannerSvg('neo', preset)
      const used = new Set([...svg.matchAll(/(?:fill|stroke)="(#[0-9a-fA-F]{6})"/g)].map((m) => m[1]))
      const palette = new Set([preset.primary, preset.secondary, preset.accent, preset.background, preset.panel, preset.border])
      expect(used.size).toBeGreaterThan(3)
      for (const c of used) expect(palette.has(c!)).toBe(true)
    }
    expect(bannerSvg('neo', THEME_PRESETS.sunset)).not.toBe(bannerSvg('neo', cyber))
  })

  it('is well-formed SVG and never contains the username, whatever it holds', () => {
    const evil = '"><script>alert(1)</script><svg onload="x'
    const svg = bannerSvg(evil, cyber)
    expect(wellFormed(svg)).toBe(true)
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
    expect(svg).not.toContain('script')
    expect(svg).not.toContain('onload')
    expect(svg).not.toContain(evil)
    expect(wellFormed(bannerSvg('neo', cyber))).toBe(true)
    // A hostile colour value (the theme validates them, but the serialiser does not rely on it).
    expect(wellFormed(bannerSvg('neo', { ...cyber, primary: '"/><script>' }))).toBe(true)
  })

  it('seeds: stable hashes and a PRNG in [0, 1)', () => {
    expect(seedOf('neo')).toBe(seedOf('neo'))
    expect(seedOf('neo')).not.toBe(seedOf('oen'))
    const r = prng(42)
    for (let i = 0; i < 1000; i++) {
      const v = r()
      expect(v).toBeGreaterThanOrEqual(0)
      expect(v).toBeLessThan(1)
    }
    expect(prng(42)()).toBe(prng(42)())
  })
})
