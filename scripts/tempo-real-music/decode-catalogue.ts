/**
 * Decodes the 45 catalogue MP3s in headless Chromium (no ffmpeg here) into the tempo lab's folder
 * (scripts/tempo-model/pieces.ts: mono float32 at ~11 kHz, the analysis rate, and catalogue.json
 * with each song's true tempo from its recipe), for refit-study.ts. About a minute.
 *
 *   npx tsx scripts/tempo-real-music/decode-catalogue.ts
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { launchOptions } from '../../tests/e2e/support/browser.ts'
import { compose } from '../../workers/composer/index.ts'
import { ALL_CATALOGUE, sampleAudioUrl } from '../sample-catalogue.ts'
import { PIECES_DIR, setFile } from '../tempo-model/pieces.ts'

mkdirSync(PIECES_DIR, { recursive: true })
const browser = await chromium.launch(launchOptions())
try {
  const page = await browser.newPage()
  const meta = []
  for (const song of ALL_CATALOGUE) {
    const b64 = readFileSync(join('public', sampleAudioUrl(song.id))).toString('base64')
    // The remix mixdown (remixMixdown) in the page: only ~11 kHz mono crosses back, as base64.
    const pcm = await page.evaluate(async (data) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0))
      const buf = await new OfflineAudioContext(1, 1, 44100).decodeAudioData(bytes.buffer)
      const factor = Math.max(1, Math.floor(buf.sampleRate / 11025))
      const n = Math.floor(buf.length / factor)
      const x = new Float32Array(n)
      for (let c = 0; c < buf.numberOfChannels; c++) {
        const ch = buf.getChannelData(c)
        for (let i = 0; i < n; i++) {
          let s = 0
          for (let k = 0; k < factor; k++) s += ch[i * factor + k]!
          x[i]! += s / factor / buf.numberOfChannels
        }
      }
      const u8 = new Uint8Array(x.buffer)
      let s = ''
      for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode(...u8.subarray(i, i + 0x8000))
      return { data: btoa(s), rate: buf.sampleRate / factor }
    }, b64)
    writeFileSync(join(PIECES_DIR, `${song.id}.f32`), Buffer.from(pcm.data, 'base64'))
    meta.push({ id: song.id, rate: pcm.rate, bpm: compose(song.recipe).bpm, genre: song.recipe.genre })
  }
  writeFileSync(setFile('catalogue'), JSON.stringify(meta))
  console.log(`${meta.length} songs in ${PIECES_DIR}`)
} finally {
  await browser.close()
}
