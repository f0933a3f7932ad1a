// Quick check of the renderer: `npx tsx scripts/probe-render.ts '[["upbeat","electronic"]]'`
// renders each mood/genre pair for a fixed description and prints its length and render time.
import { writeFileSync } from 'node:fs'
import { openHarness } from './harness-browser.ts'

const pairs = JSON.parse(process.argv[2] ?? '[["upbeat","electronic"]]') as [string, string][]
const harness = await openHarness()
try {
  for (const [mood, genre] of pairs) {
    const r = await harness.page.evaluate((req) => window.renderRequest(req), {
      description: process.argv[3] ?? 'neon rain',
      mood,
      genre,
    } as never)
    console.log(`${mood} ${genre}: ${r.summary}, ${r.seconds.toFixed(1)} s rendered in ${r.renderMs.toFixed(0)} ms`)
    if (process.argv[4]) writeFileSync(`${process.argv[4]}-${mood}-${genre}.s16`, Buffer.from(r.pcm, 'base64'))
  }
} finally {
  await harness.close()
}
