/**
 * Ambience layers from words of a description, generated (no recordings): rain is high-passed noise
 * with a dense scatter of droplet bursts, vinyl a soft hiss with crackle clicks, city a low rumble
 * that swells slowly. Seeded, so a piece always gets the same ambience.
 */
import { createRng, hashString } from '../../../workers/composer/prng.ts'

export type Ambience = 'rain' | 'vinyl' | 'city'

const CUES: Readonly<Record<string, Ambience>> = {
  rain: 'rain',
  rainy: 'rain',
  raining: 'rain',
  drizzle: 'rain',
  storm: 'rain',
  stormy: 'rain',
  thunderstorm: 'rain',
  downpour: 'rain',
  vinyl: 'vinyl',
  record: 'vinyl',
  crackle: 'vinyl',
  turntable: 'vinyl',
  lofi: 'vinyl',
  city: 'city',
  street: 'city',
  streets: 'city',
  traffic: 'city',
  urban: 'city',
  downtown: 'city',
  subway: 'city',
}

/** The ambience layers a description asks for, in order of first mention. */
export function ambienceOf(description: string): Ambience[] {
  const found: Ambience[] = []
  const text = description.toLowerCase().replace(/lo-fi|lo fi/g, 'lofi')
  for (const w of text.split(/[^a-z0-9]+/)) {
    const a = CUES[w]
    if (a && !found.includes(a)) found.push(a)
  }
  return found
}

/** Level of each layer relative to the music's peak (the mix is peak-normalised afterwards). */
const LEVEL: Record<Ambience, number> = { rain: 0.24, vinyl: 0.035, city: 0.08 }

/** Adds the layers to left/right (fades in and out over a second so they never start with a step). */
export function addAmbience(layers: readonly Ambience[], left: Float32Array, right: Float32Array, sampleRate: number, seed: number): void {
  for (const layer of layers) {
    const rng = createRng(hashString(`${seed}:ambience:${layer}`))
    const noise = () => rng.next() * 2 - 1
    const n = left.length
    const fade = Math.min(sampleRate, Math.floor(n / 2))
    const gain = LEVEL[layer]
    // One-pole filter coefficients.
    const pole = (hz: number) => Math.exp((-2 * Math.PI * hz) / sampleRate)
    if (layer === 'rain') {
      // Hiss from about 3 to 12 kHz (one high-pass pole, one low-pass), where rain on a window sits.
      const hp = pole(3000)
      const lp = pole(12000)
      const st = [0, 0, 0, 0]
      let drop = 0
      let dropPan = 0.5
      const dropDecay = pole(60)
      for (let i = 0; i < n; i++) {
        const env = i < fade ? i / fade : i > n - fade ? (n - i) / fade : 1
        // Droplets: a burst roughly every 8 ms, each a decaying swell of the noise.
        if (rng.next() < 125 / sampleRate) {
          drop = 0.6 + rng.next() * 1.4
          dropPan = rng.next()
        }
        drop *= dropDecay
        const xl = noise() * (0.5 + drop * (1 - dropPan))
        const xr = noise() * (0.5 + drop * dropPan)
        st[0] = hp * st[0]! + (1 - hp) * xl
        st[1] = lp * st[1]! + (1 - lp) * (xl - st[0]!)
        st[2] = hp * st[2]! + (1 - hp) * xr
        st[3] = lp * st[3]! + (1 - lp) * (xr - st[2]!)
        left[i]! += st[1]! * gain * env
        right[i]! += st[3]! * gain * env
      }
    } else if (layer === 'vinyl') {
      const lp = pole(5000)
      let hiss = 0
      let click = 0
      const clickDecay = pole(2000)
      for (let i = 0; i < n; i++) {
        const env = i < fade ? i / fade : i > n - fade ? (n - i) / fade : 1
        hiss = lp * hiss + (1 - lp) * noise()
        if (rng.next() < 6 / sampleRate) click = (rng.next() < 0.5 ? -1 : 1) * (1 + rng.next() * 3)
        click *= clickDecay
        const x = (hiss * 0.6 + click) * gain * env
        left[i]! += x
        right[i]! += x
      }
    } else {
      const lp = pole(120)
      const swell = (2 * Math.PI * 0.07) / sampleRate
      const phase = rng.next() * 2 * Math.PI
      let rumbleL = 0
      let rumbleR = 0
      for (let i = 0; i < n; i++) {
        const env = i < fade ? i / fade : i > n - fade ? (n - i) / fade : 1
        rumbleL = lp * rumbleL + (1 - lp) * noise()
        rumbleR = lp * rumbleR + (1 - lp) * noise()
        const g = gain * env * 8 * (0.7 + 0.3 * Math.sin(swell * i + phase))
        left[i]! += rumbleL * g
        right[i]! += rumbleR * g
      }
    }
  }
}
