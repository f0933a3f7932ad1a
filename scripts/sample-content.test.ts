import { createHash } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DISCOVERY_SONGS, SAMPLE_SONGS } from '../src/lib/catalogue/sample-songs.ts'
import { GENRES } from '../workers/composer/index.ts'
import { SOUND_LIBRARY } from '../src/lib/catalogue/sound-library.ts'
import { kitSound, reverbImpulse, synthesiseDrum } from '../src/engine/score-drums.ts'

const PUBLIC = join(import.meta.dirname, '../public')
const file = (url: string) => join(PUBLIC, url)

/** Duration of a CBR MPEG-1 Layer III file from its first frame header and the audio byte count. */
function mp3Seconds(bytes: Buffer): number {
  let i = 0
  if (bytes.subarray(0, 3).toString('latin1') === 'ID3') i = 10 + ((bytes[6]! << 21) | (bytes[7]! << 14) | (bytes[8]! << 7) | bytes[9]!)
  while (i < bytes.length - 4 && !(bytes[i] === 0xff && (bytes[i + 1]! & 0xe0) === 0xe0)) i++
  const bitrateIndex = bytes[i + 2]! >> 4
  const kbps = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320][bitrateIndex]!
  expect(bytes[i + 1]! & 0x1e, 'MPEG-1 Layer III').toBe(0x1a)
  return ((bytes.length - i) * 8) / (kbps * 1000)
}

describe('built-in content', () => {
  it('ships five distinct songs of at least 60 s with covers, all audio under 15 MB', () => {
    expect(SAMPLE_SONGS).toHaveLength(5)
    const hashes = new Set<string>()
    let total = 0
    for (const song of SAMPLE_SONGS) {
      const bytes = readFileSync(file(song.audioUrl))
      total += bytes.length
      hashes.add(createHash('sha256').update(bytes).digest('hex'))
      const seconds = mp3Seconds(bytes)
      expect(seconds, song.id).toBeGreaterThanOrEqual(60)
      const [m, s] = song.duration.split(':').map(Number)
      // The catalogue's duration is the real rendered length (the encoder adds a few ms of padding).
      expect(Math.abs(m! * 60 + s! - seconds), song.id).toBeLessThan(1.5)
      const cover = readFileSync(file(song.image), 'utf8')
      expect(cover).toMatch(/^<svg[^>]+viewBox="0 0 512 512"/)
      expect(cover).toContain(song.title.toUpperCase())
      expect(cover).not.toMatch(/https?:\/\/(?!www\.w3\.org)/)
    }
    expect(hashes.size).toBe(5)
    const covers = new Set(SAMPLE_SONGS.map((s) => readFileSync(file(s.image), 'utf8')))
    expect(covers.size).toBe(5)
    for (const sound of SOUND_LIBRARY) total += statSync(file(sound.url)).size
    expect(total).toBeLessThan(15e6)
  })

  it('has a Sound Library of drums, bass, synth and fx loops of 2–8 s', () => {
    expect(new Set(SOUND_LIBRARY.map((s) => s.category))).toEqual(new Set(['drums', 'bass', 'synth', 'fx']))
    expect(new Set(SOUND_LIBRARY.map((s) => s.id)).size).toBe(SOUND_LIBRARY.length)
    for (const sound of SOUND_LIBRARY) {
      expect(sound.url).toMatch(/^\/audio\/library\/[a-z-]+\.mp3$/)
      expect(existsSync(file(sound.url)), sound.url).toBe(true)
      expect(sound.duration).toBeGreaterThanOrEqual(2)
      expect(sound.duration).toBeLessThanOrEqual(8)
      expect(Math.abs(mp3Seconds(readFileSync(file(sound.url))) - sound.duration), sound.id).toBeLessThan(0.2)
    }
  })
})

describe('renderer sounds (seeded drums and reverb impulse)', () => {
  const rms = (x: Float32Array, from: number, to: number) => Math.sqrt(x.subarray(from, to).reduce((a, v) => a + v * v, 0) / (to - from))
  // Renders are compared as bytes: `toEqual` walks a typed array element by element, which made the
  // 48 voices (up to 3 s each) take 39 s of a 30 s budget on a loaded machine; a byte compare is
  // exact and takes microseconds. The sweep renders at a quarter of the app's rate (the same code
  // and envelopes on a quarter of the samples); the brightness check below runs at 44.1 kHz.
  const SWEEP_RATE = 11025
  const sameSamples = (a: Float32Array, b: Float32Array) =>
    Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength))

  it('synthesises every drum voice deterministically, finite and decaying', () => {
    for (const kit of ['electronic', 'rock', 'boom-bap', 'brush', 'light', 'metal', 'soft', 'pop'] as const) {
      for (const voice of ['kick', 'snare', 'hat', 'openHat', 'ride', 'crash'] as const) {
        const a = synthesiseDrum(kitSound(kit, voice), SWEEP_RATE, 42)
        expect(sameSamples(synthesiseDrum(kitSound(kit, voice), SWEEP_RATE, 42), a), `${kit} ${voice} repeats`).toBe(true)
        let peak = 0
        for (const v of a) {
          if (!Number.isFinite(v)) throw new Error(`${kit} ${voice}: a sample is not finite`)
          peak = Math.max(peak, Math.abs(v))
        }
        const q = Math.floor(a.length / 4)
        expect(rms(a, 0, q), `${kit} ${voice}`).toBeGreaterThan(rms(a, 3 * q, a.length) * 4)
        expect(peak, `${kit} ${voice}`).toBeLessThan(2)
      }
    }
  })

  it('makes hats brighter than kicks (zero-crossing rate)', () => {
    const zcr = (x: Float32Array) => x.reduce((n, v, i) => n + (i > 0 && Math.sign(v) !== Math.sign(x[i - 1]!) ? 1 : 0), 0) / x.length
    const kick = synthesiseDrum(kitSound('electronic', 'kick'), 44100, 1)
    const hat = synthesiseDrum(kitSound('electronic', 'hat'), 44100, 1)
    expect(zcr(hat)).toBeGreaterThan(zcr(kick) * 10)
  })

  it('gives a stereo reverb impulse that decays to silence and differs between channels', () => {
    const [l, r] = reverbImpulse(44100, 2, 7)
    expect(l.length).toBe(88200)
    expect(rms(l, 0, 8820)).toBeGreaterThan(rms(l, 70560, 88200) * 20)
    expect(Math.abs(l[l.length - 1]!)).toBeLessThan(1e-4)
    expect(sameSamples(l, r)).toBe(false)
    expect(sameSamples(reverbImpulse(44100, 2, 7)[0], l)).toBe(true)
  })

  it('ships 40 more distinct discovery songs of 1–3 minutes in all nine genres, with covers, under 35 MB in all', () => {
    expect(DISCOVERY_SONGS.length).toBeGreaterThanOrEqual(40)
    expect(new Set(DISCOVERY_SONGS.map((s) => s.genre))).toEqual(new Set(GENRES))
    const hashes = new Set<string>()
    let total = 0
    for (const song of DISCOVERY_SONGS) {
      expect(song.audioUrl).toBe(`/audio/catalogue/${song.id}.mp3`)
      const bytes = readFileSync(file(song.audioUrl))
      total += bytes.length
      hashes.add(createHash('sha256').update(bytes).digest('hex'))
      const seconds = mp3Seconds(bytes)
      expect(seconds, song.id).toBeGreaterThanOrEqual(60)
      expect(seconds, song.id).toBeLessThanOrEqual(180)
      const cover = readFileSync(file(song.image), 'utf8')
      expect(cover).toContain(song.title.toUpperCase().replace(/&/g, '&amp;'))
      expect(cover).not.toMatch(/https?:\/\/(?!www\.w3\.org)/)
    }
    expect(hashes.size).toBe(DISCOVERY_SONGS.length)
    expect(total).toBeLessThan(35e6)
  })
})
