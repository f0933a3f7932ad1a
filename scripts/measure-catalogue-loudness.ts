/**
 * Measures the catalogue's loudness (BS.1770-4 integrated loudness and true peak, dsp/song-loudness.ts)
 * on the committed MP3s and writes it where the catalogue is generated from: scripts/catalogue-loudness.json,
 * then src/lib/catalogue/sample-songs.ts and a new catalogue seed migration (public.songs.loudness_lufs,
 * true_peak_dbtp). Files already measured (same SHA-256) are not measured again unless `--all`.
 *
 * Usage: npx tsx scripts/measure-catalogue-loudness.ts [--all]    (needs ffmpeg on PATH to decode)
 */
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeCatalogue } from './catalogue-codegen.ts'
import { measureCatalogueLoudness } from './catalogue-loudness.ts'
import { ALL_CATALOGUE } from './sample-catalogue.ts'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const started = performance.now()
measureCatalogueLoudness(ROOT, ALL_CATALOGUE, { all: process.argv.includes('--all'), log: console.log })
const { clientChanged, newSeed } = writeCatalogue(ROOT)
console.log(clientChanged ? 'wrote  src/lib/catalogue/sample-songs.ts' : 'same   src/lib/catalogue/sample-songs.ts')
console.log(newSeed ? `wrote  supabase/migrations/${newSeed}` : 'same   the newest catalogue seed migration')
console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`)
