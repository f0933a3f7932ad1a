/**
 * Renders the tempo model's real-renderer sets in headless Chromium (scripts/harness-browser.ts:
 * the app's composer and renderer) and decodes the catalogue's shipped MP3s there too, storing
 * each as mono float32 at ~11 kHz (the rate the detector analyses at) with its true tempo:
 *
 *   'real tempo training'  63 pieces, 60 s, seven per genre (fitted on)
 *   'real tempo check'     45 pieces, 60 s (checked only)
 *   'catalogue'            the 45 catalogue songs, true tempo from their recipes (checked only)
 *
 *   npx tsx scripts/tempo-model/render-pieces.ts   (about 20 minutes on two cores)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { compose, GENRES, MOODS, type ComposeRequest } from '../../workers/composer/index.ts'
import { openHarness } from '../harness-browser.ts'
import { ALL_CATALOGUE, sampleAudioUrl } from '../sample-catalogue.ts'
import { PIECES_DIR, setFile } from './pieces.ts'

const RATE = 11025

function mono(pcm: Int16Array, channels: number, sampleRate: number): { x: Float32Array; rate: number } {
  const factor = Math.max(1, Math.floor(sampleRate / RATE))
  const n = Math.floor(pcm.length / channels / factor)
  const x = new Float32Array(n)
  for (let k = 0; k < n; k++) {
    let s = 0
    for (let j = 0; j < factor; j++) for (let c = 0; c < channels; c++) s += pcm[(k * factor + j) * channels + c]! / 32768
    x[k] = s / factor / channels
  }
  return { x, rate: sampleRate / factor }
}

mkdirSync(PIECES_DIR, { recursive: true })
const harness = await openHarness()
try {
  for (const [set, count] of [
    ['real tempo training', 63],
    ['real tempo check', 45],
  ] as const) {
    const meta = []
    for (let i = 0; i < count; i++) {
      const request: ComposeRequest = {
        description: `${set} ${i}`,
        genre: GENRES[i % GENRES.length],
        mood: MOODS[(i * 2 + Math.floor(i / 9)) % MOODS.length],
        minDurationSeconds: 60,
      }
      const r = await harness.page.evaluate((job) => window.renderJob(job), { kind: 'song' as const, request })
      const { x, rate } = mono(new Int16Array(Buffer.from(r.pcm, 'base64').buffer.slice(0)), r.channels, r.sampleRate)
      const id = `${set.replace(/ /g, '_')}-${i}`
      writeFileSync(join(PIECES_DIR, `${id}.f32`), Buffer.from(x.buffer))
      meta.push({ id, rate, bpm: compose(request).bpm, genre: request.genre })
      console.log(`${id} ${request.genre}/${request.mood} ${meta.at(-1)!.bpm} BPM`)
    }
    writeFileSync(setFile(set), JSON.stringify(meta))
  }
  const meta = []
  for (const song of ALL_CATALOGUE) {
    const b64 = readFileSync(join('public', sampleAudioUrl(song.id))).toString('base64')
    const pcm = await harness.page.evaluate(async (data) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0))
      const buf = await new OfflineAudioContext(1, 1, 44100).decodeAudioData(bytes.buffer)
      const out = new Int16Array(buf.length * buf.numberOfChannels)
      for (let c = 0; c < buf.numberOfChannels; c++) {
        const ch = buf.getChannelData(c)
        for (let i = 0; i < buf.length; i++)
          out[i * buf.numberOfChannels + c] = Math.max(-32768, Math.min(32767, Math.round(ch[i]! * 32767)))
      }
      let s = ''
      const u8 = new Uint8Array(out.buffer)
      for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode(...u8.subarray(i, i + 0x8000))
      return { data: btoa(s), channels: buf.numberOfChannels, sampleRate: buf.sampleRate }
    }, b64)
    const { x, rate } = mono(new Int16Array(Buffer.from(pcm.data, 'base64').buffer.slice(0)), pcm.channels, pcm.sampleRate)
    writeFileSync(join(PIECES_DIR, `${song.id}.f32`), Buffer.from(x.buffer))
    meta.push({ id: song.id, rate, bpm: compose(song.recipe).bpm, genre: song.recipe.genre })
    console.log(`${song.id} ${meta.at(-1)!.bpm} BPM`)
  }
  writeFileSync(setFile('catalogue'), JSON.stringify(meta))
} finally {
  await harness.close()
}
