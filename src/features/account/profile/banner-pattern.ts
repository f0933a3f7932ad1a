import type { ThemeColors } from '../../../config/theme-presets.ts'

// The generated profile banner: a night skyline with lit windows under circuit traces, drawn in
// the active theme's colours and laid out by a PRNG seeded with the username, so a user keeps the
// same banner everywhere and two users get different ones. Pure: shapes out, no DOM. The username
// only seeds numbers; it never reaches the output, so it cannot inject markup.

export const BANNER_WIDTH = 1200
export const BANNER_HEIGHT = 240

export type BannerShape =
  | { kind: 'rect'; x: number; y: number; width: number; height: number; fill: string; opacity: number }
  | { kind: 'circle'; cx: number; cy: number; r: number; fill: string; opacity: number }
  | { kind: 'polyline'; points: string; stroke: string; strokeWidth: number; opacity: number }

export type BannerColors = Pick<ThemeColors, 'primary' | 'secondary' | 'accent' | 'background' | 'panel' | 'border'>

/** FNV-1a over UTF-16 code units: a stable 32-bit seed from any string. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

/** mulberry32: small, fast, and the same sequence on every engine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const round = (n: number) => Math.round(n * 10) / 10

export function bannerShapes(username: string, colors: BannerColors): BannerShape[] {
  const rand = prng(seedOf(username))
  const between = (lo: number, hi: number) => lo + rand() * (hi - lo)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!
  const W = BANNER_WIDTH
  const H = BANNER_HEIGHT
  const shapes: BannerShape[] = [{ kind: 'rect', x: 0, y: 0, width: W, height: H, fill: colors.background, opacity: 1 }]

  // A sun or moon somewhere in the sky.
  shapes.push({
    kind: 'circle',
    cx: round(between(120, W - 120)),
    cy: round(between(50, 110)),
    r: round(between(30, 60)),
    fill: colors.secondary,
    opacity: 0.35,
  })

  // Circuit traces: right-angled runs across the sky, a node at each end.
  const traces = 5 + Math.floor(rand() * 5)
  for (let i = 0; i < traces; i++) {
    let x = round(between(0, W))
    let y = round(between(10, H * 0.55))
    const points = [`${x},${y}`]
    const legs = 2 + Math.floor(rand() * 4)
    for (let leg = 0; leg < legs; leg++) {
      if (leg % 2 === 0) x = round(Math.min(W, Math.max(0, x + between(-220, 220))))
      else y = round(Math.min(H * 0.6, Math.max(6, y + between(-60, 60))))
      points.push(`${x},${y}`)
    }
    const stroke = pick([colors.primary, colors.secondary, colors.accent])
    shapes.push({ kind: 'polyline', points: points.join(' '), stroke, strokeWidth: 2, opacity: 0.55 })
    shapes.push({ kind: 'circle', cx: x, cy: y, r: 4, fill: stroke, opacity: 0.9 })
  }

  // The skyline: buildings edge to edge, some windows lit.
  let x = 0
  while (x < W) {
    const width = round(between(34, 90))
    const height = round(between(H * 0.25, H * 0.75))
    const top = round(H - height)
    shapes.push({ kind: 'rect', x: round(x), y: top, width, height, fill: colors.panel, opacity: 1 })
    shapes.push({ kind: 'rect', x: round(x), y: top, width, height: 2, fill: colors.border, opacity: 1 })
    for (let wy = top + 10; wy < H - 12; wy += 16) {
      for (let wx = x + 6; wx < x + width - 10; wx += 14) {
        if (rand() < 0.22)
          shapes.push({
            kind: 'rect',
            x: round(wx),
            y: round(wy),
            width: 6,
            height: 8,
            fill: pick([colors.primary, colors.accent]),
            opacity: 0.8,
          })
      }
    }
    x += width + round(between(0, 6))
  }

  // A neon horizon line in front.
  shapes.push({ kind: 'rect', x: 0, y: H - 3, width: W, height: 3, fill: colors.primary, opacity: 0.9 })
  return shapes
}

const attr = (name: string, value: string | number) =>
  ` ${name}="${String(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')}"`

/** The banner as a standalone SVG document (tests, and anyone wanting the file). */
export function bannerSvg(username: string, colors: BannerColors): string {
  const body = bannerShapes(username, colors)
    .map((s) => {
      if (s.kind === 'rect')
        return (
          `<rect${attr('x', s.x)}${attr('y', s.y)}${attr('width', s.width)}${attr('height', s.height)}` +
          `${attr('fill', s.fill)}${attr('opacity', s.opacity)}/>`
        )
      if (s.kind === 'circle')
        return `<circle${attr('cx', s.cx)}${attr('cy', s.cy)}${attr('r', s.r)}${attr('fill', s.fill)}${attr('opacity', s.opacity)}/>`
      return (
        `<polyline${attr('points', s.points)}${attr('stroke', s.stroke)}${attr('stroke-width', s.strokeWidth)}` +
        `${attr('opacity', s.opacity)} fill="none"/>`
      )
    })
    .join('')
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${BANNER_WIDTH} ${BANNER_HEIGHT}" ` +
    `preserveAspectRatio="xMidYMid slice">${body}</svg>`
  )
}
