/**
 * Cover art for the built-in songs: generated SVG, one cyberpunk motif per genre (synthwave sun and
 * grid, chillwave waves, electronic circuit board, lofi rainy window, ambient ringed planet), with
 * seeded details so every cover is its own.
 */
import { createRng, hashString, type Rng } from '../workers/composer/prng.ts'

export interface CoverInput {
  id: string
  title: string
  artist: string
  genre: string
  /** The small second line; default "ARTIST · GENRE". */
  subtitle?: string
}

const PALETTES: Record<string, [string, string, string, string]> = {
  synthwave: ['#12002b', '#ff2bd6', '#ff9e2c', '#22e4ff'],
  chillwave: ['#061a2e', '#5ef2d6', '#ff8fc7', '#b8a4ff'],
  electronic: ['#020d12', '#00ffa3', '#00b8ff', '#e8ff3c'],
  lofi: ['#160f24', '#ffb35c', '#9b6bff', '#ff5c8a'],
  ambient: ['#02041a', '#6c7bff', '#b06cff', '#7df9ff'],
  pop: ['#1e0420', '#ff5cc8', '#ffd84a', '#7df9ff'],
  rock: ['#1a0505', '#ff3b3b', '#ffb02e', '#f2f2f2'],
  'hip-hop': ['#0d0d1a', '#ffd84a', '#ff5c8a', '#5ef2d6'],
  jazz: ['#04121f', '#3ec1ff', '#ffb35c', '#e0c3ff'],
  folk: ['#0f1a0a', '#a6e35c', '#ffb35c', '#ffe7b0'],
  classical: ['#0a0a1f', '#e6d28a', '#b8a4ff', '#ffffff'],
  metal: ['#050505', '#c0c0c0', '#ff2b2b', '#8a8aff'],
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const f = (n: number) => n.toFixed(1)

function synthwave(rng: Rng, [, a, b, c]: string[]): string {
  const stripes = Array.from(
    { length: 6 },
    (_, i) => `<rect x="136" y="${f(236 + i * 16 + i * i * 1.5)}" width="240" height="${f(3 + i * 1.6)}" fill="url(#bg)"/>`,
  ).join('')
  const grid = [
    ...Array.from(
      { length: 17 },
      (_, i) =>
        `<line x1="${256 + (i - 8) * 14}" y1="330" x2="${256 + (i - 8) * 90}" y2="512" stroke="${c}" stroke-width="1.5" opacity=".8"/>`,
    ),
    ...Array.from({ length: 8 }, (_, i) => {
      const y = 330 + Math.pow(i / 7, 1.8) * 182
      return `<line x1="0" y1="${f(y)}" x2="512" y2="${f(y)}" stroke="${c}" stroke-width="1.5" opacity=".8"/>`
    }),
  ].join('')
  const peaks = Array.from({ length: 9 }, (_, i) => `${i * 64},${f(330 - rng.next() * 60)}`).join(' ')
  return (
    `<defs><linearGradient id="sun" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${b}"/><stop offset="1" ` +
    `stop-color="${a}"/></linearGradient></defs>
<circle cx="256" cy="250" r="120" fill="url(#sun)"/>${stripes}
<rect x="0" y="330" width="512" height="182" fill="#0d0221"/><polygon points="0,330 ${peaks} 512,330" fill="#1a0638" ` +
    `stroke="${a}" stroke-width="2"/>${grid}`
  )
}

function chillwave(rng: Rng, [, a, b, c]: string[]): string {
  const waves = Array.from({ length: 7 }, (_, i) => {
    const y = 300 + i * 28
    const amp = 8 + rng.next() * 10
    const d = Array.from(
      { length: 33 },
      (_, k) => `${k === 0 ? 'M' : 'L'}${k * 16},${f(y + Math.sin(k * 0.5 + i + rng.next() * 0.3) * amp)}`,
    ).join(' ')
    return `<path d="${d}" fill="none" stroke="${i % 2 ? a : c}" stroke-width="3" opacity="${f(1 - i * 0.1)}"/>`
  }).join('')
  return (
    `<circle cx="${f(330 + rng.next() * 60)}" cy="150" r="70" fill="${b}" opacity=".9"/><circle cx="350" cy="150" ` +
    `r="100" fill="none" stroke="${b}" opacity=".3" stroke-width="2"/>${waves}`
  )
}

function electronic(rng: Rng, [, a, b, c]: string[]): string {
  let paths = ''
  for (let i = 0; i < 22; i++) {
    let x = Math.round(rng.next() * 16) * 32
    let y = Math.round(rng.next() * 16) * 32
    let d = `M${x},${y}`
    for (let k = 0; k < 4; k++) {
      if (rng.chance(0.5)) x += (rng.chance(0.5) ? 1 : -1) * 32 * rng.int(1, 4)
      else y += (rng.chance(0.5) ? 1 : -1) * 32 * rng.int(1, 4)
      d += ` L${x},${y}`
    }
    const col = i % 3 === 0 ? b : a
    paths += `<path d="${d}" fill="none" stroke="${col}" stroke-width="3" opacity=".85"/><circle cx="${x}" cy="${y}" r="6" fill="${c}"/>`
  }
  return (
    `${paths}<rect x="176" y="156" width="160" height="160" rx="12" fill="#021a22" stroke="${a}" ` +
    `stroke-width="4"/><text x="256" y="252" font-family="monospace" font-size="44" fill="${c}" ` +
    `text-anchor="middle">⚡</text>`
  )
}

function lofi(rng: Rng, [, a, b, c]: string[]): string {
  const skyline = Array.from({ length: 12 }, (_, i) => {
    const h = 60 + rng.next() * 140
    const lights = Array.from({ length: 6 }, () =>
      rng.chance(0.5)
        ? `<rect x="${f(100 + i * 26 + 4 + rng.next() * 12)}" y="${f(420 - h + 10 + rng.next() * (h - 20))}" width="4" ` +
          `height="5" fill="${a}"/>`
        : '',
    ).join('')
    return `<rect x="${100 + i * 26}" y="${f(420 - h)}" width="24" height="${f(h)}" fill="#2a1d40"/>${lights}`
  }).join('')
  const rain = Array.from({ length: 60 }, () => {
    const x = 90 + rng.next() * 330
    const y = 70 + rng.next() * 340
    return `<line x1="${f(x)}" y1="${f(y)}" x2="${f(x - 4)}" y2="${f(y + 18)}" stroke="${c}" stroke-width="1.5" opacity=".6"/>`
  }).join('')
  return (
    `<rect x="80" y="60" width="352" height="372" rx="8" fill="#1d1433" stroke="${b}" ` +
    `stroke-width="8"/>${skyline}${rain}<line x1="256" y1="60" x2="256" y2="432" stroke="${b}" ` +
    `stroke-width="6"/><line x1="80" y1="246" x2="432" y2="246" stroke="${b}" stroke-width="6"/><rect x="60" ` +
    `y="432" width="392" height="18" fill="${b}"/><circle cx="400" cy="120" r="20" fill="${a}" opacity=".7"/>`
  )
}

function ambient(rng: Rng, [, a, b, c]: string[]): string {
  const stars = Array.from(
    { length: 80 },
    () =>
      `<circle cx="${f(rng.next() * 512)}" cy="${f(rng.next() * 512)}" r="${f(0.5 + rng.next() * 1.6)}" fill="#fff" ` +
      `opacity="${f(0.3 + rng.next() * 0.7)}"/>`,
  ).join('')
  return (
    `${stars}<defs><radialGradient id="pl" cx=".35" cy=".35"><stop offset="0" stop-color="${c}"/><stop offset=".6" ` +
    `stop-color="${a}"/><stop offset="1" stop-color="#0a0630"/></radialGradient></defs>
<ellipse cx="256" cy="256" rx="200" ry="46" fill="none" stroke="${b}" stroke-width="6" opacity=".7" transform="rotate(-18 ` +
    `256 256)"/>
<circle cx="256" cy="256" r="110" fill="url(#pl)"/>
<path d="M 64 300 A 200 46 -18 0 0 448 212" fill="none" stroke="${b}" stroke-width="6" transform="rotate(0 256 256)" ` +
    `opacity=".9"/>`
  )
}

// The composer's other genres borrow the five motifs (their palettes above tell them apart).
const MOTIFS: Record<string, (rng: Rng, palette: string[]) => string> = {
  synthwave,
  chillwave,
  electronic,
  lofi,
  ambient,
  pop: synthwave,
  rock: electronic,
  'hip-hop': lofi,
  jazz: lofi,
  folk: chillwave,
  classical: ambient,
  metal: electronic,
}

export function coverSvg(input: CoverInput): string {
  const rng = createRng(hashString(input.id))
  const palette = PALETTES[input.genre] ?? PALETTES.electronic!
  const [bg, a, b] = palette
  const motif = (MOTIFS[input.genre] ?? electronic)(rng, palette)
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512" role="img" ` +
    `aria-label="${esc(input.title)} cover art">
<defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${bg}"/><stop offset="1" ` +
    `stop-color="#000"/></linearGradient>
<filter id="glow"><feGaussianBlur stdDeviation="3" result="b"/><feMerge><feMergeNode in="b"/><feMergeNode ` +
    `in="SourceGraphic"/></feMerge></filter></defs>
<rect width="512" height="512" fill="url(#bg)"/>
<g filter="url(#glow)">${motif}</g>
<rect x="0" y="452" width="512" height="60" fill="#000" opacity=".55"/>
<text x="24" y="482" font-family="Orbitron, Rajdhani, monospace" font-size="26" font-weight="700" fill="${a}" ` +
    `letter-spacing="2">${esc(input.title.toUpperCase())}</text>
<text x="24" y="502" font-family="monospace" font-size="13" fill="${b}" ` +
    `letter-spacing="3">${esc((input.subtitle ?? `${input.artist} · ${input.genre}`).toUpperCase())}</text>
</svg>
`
  )
}
