/**
 * A cover for a published track when the creator uploads none: a 512 px PNG drawn on a canvas
 * (neon rings over a genre-coloured gradient, seeded by the title, with the title on it).
 */
const GENRE_HUES: Record<string, number> = {
  electronic: 160,
  pop: 320,
  rock: 0,
  'hip-hop': 45,
  jazz: 200,
  folk: 95,
  classical: 50,
  ambient: 240,
  metal: 270,
}

function seeded(text: string): () => number {
  let h = 2166136261
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 16777619)
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507) ^ Math.imul(h ^ (h >>> 13), 3266489909)
    return ((h >>>= 0) % 10000) / 10000
  }
}

export async function generatedCover(title: string, genre: string, artist: string): Promise<Blob> {
  const size = 512
  const canvas = document.createElement('canvas')
  canvas.width = size
  canvas.height = size
  const g = canvas.getContext('2d')
  if (!g) throw new Error('This browser cannot draw a cover.')
  const hue = GENRE_HUES[genre] ?? 180
  const rand = seeded(`${title}|${genre}`)
  const bg = g.createLinearGradient(0, 0, size, size)
  bg.addColorStop(0, `hsl(${hue} 80% 12%)`)
  bg.addColorStop(1, '#000')
  g.fillStyle = bg
  g.fillRect(0, 0, size, size)
  g.lineWidth = 3
  for (let i = 0; i < 7; i++) {
    g.strokeStyle = `hsl(${(hue + rand() * 90) % 360} 100% ${55 + rand() * 20}%)`
    g.shadowColor = g.strokeStyle
    g.shadowBlur = 12
    g.beginPath()
    g.arc(size * (0.3 + rand() * 0.4), size * (0.3 + rand() * 0.3), 30 + rand() * 170, 0, Math.PI * 2)
    g.stroke()
  }
  g.shadowBlur = 0
  g.fillStyle = 'rgba(0,0,0,.6)'
  g.fillRect(0, size - 70, size, 70)
  g.fillStyle = `hsl(${hue} 100% 70%)`
  g.font = 'bold 26px monospace'
  g.fillText(title.toUpperCase().slice(0, 30), 20, size - 38)
  g.fillStyle = '#ddd'
  g.font = '14px monospace'
  g.fillText(`${artist} · ${genre}`.toUpperCase().slice(0, 50), 20, size - 14)
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('The cover could not be drawn.'))), 'image/png'),
  )
}
