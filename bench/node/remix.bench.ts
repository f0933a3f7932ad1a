/**
 * Remix Studio DSP: analysis time (tempo + beat grid, key, pitch track) of a 3-minute track, and
 * the speed of the remix's DSP over 3 minutes (Beat Match stretch, two Harmonize voices, Auto
 * Tune), in times real time, against the plain WAV export (pcm16 encoding) of the same source in
 * the same run. The source is a 3-minute composer piece rendered at 44.1 kHz
 * (workers/composer-test-render.ts). Targets (issue 10): analysis < 3 s, remix ≥ 10x real time.
 *
 * What this does NOT measure yet: the full remix graph (effects through the channel strip,
 * samples) — src/engine/remix/ is not built yet.
 *
 * Run: npm run bench -- remix    (or standalone: npx tsx bench/node/remix.bench.ts)
 */
import { pathToFileURL } from 'node:url'
import { compose } from '../../workers/composer/index.ts'
import { renderScore } from '../../workers/composer-test-render.ts'
import { analyseRemixSource } from '../../workers/remix-analysis.ts'
import { encodeWav } from '../../workers/wav-encoding.ts'
import { pitchShift, timeStretch } from '../../audio-worklets/kernels/time-stretch.ts'
import { AutoTune } from '../../audio-worklets/kernels/auto-tune.ts'
import { scalePitchClasses } from '../../audio-worklets/kernels/key-detect.ts'
import type { BenchResult } from '../types.ts'

const SR = 44100
const SECONDS = 180

const time = <T>(f: () => T): [T, number] => {
  const start = performance.now()
  const out = f()
  return [out, (performance.now() - start) / 1000]
}

export async function run(): Promise<BenchResult[]> {
  const score = compose({ description: 'remix bench', genre: 'pop', mood: 'happy', minDurationSeconds: SECONDS })
  const x = renderScore(score, SECONDS, SR)
  const [, exportS] = time(() => encodeWav([x, x], SR, 'pcm16'))
  const [analysis, analysisS] = time(() => analyseRemixSource([x, x], SR))
  const scale = scalePitchClasses(analysis.key.tonic, analysis.key.mode)
  const [, stretchS] = time(() => timeStretch(x, analysis.bpm / 128, SR))
  const [, harmonizeS] = time(() => {
    pitchShift(x, 4, SR)
    pitchShift(x, 7, SR)
  })
  const [, tuneS] = time(() => {
    const tuner = new AutoTune({ sampleRate: SR, scale, retuneMs: 0 })
    const out = new Float32Array(x.length)
    for (let off = 0; off < x.length; off += 128) tuner.process(x.subarray(off, off + 128), out.subarray(off, off + 128), Math.min(128, x.length - off))
  })
  // Stereo remix: every kernel runs on both channels.
  const remixS = 2 * (stretchS + harmonizeS + tuneS)
  return [
    { name: 'analysis of 3 min (tempo+grid, key, pitch)', value: analysisS, unit: 's', detail: `target < 3 s; found ${analysis.bpm} BPM (score ${score.bpm}), ${analysis.key.name}` },
    { name: 'remix DSP, stereo (stretch + 2 voices + tune)', value: SECONDS / remixS, unit: 'x real time', detail: `target ≥ 10x; ${remixS.toFixed(1)} s for 3 min` },
    { name: '  of which Beat Match stretch (mono)', value: SECONDS / stretchS, unit: 'x real time' },
    { name: '  of which Harmonize 2 voices (mono)', value: SECONDS / harmonizeS, unit: 'x real time' },
    { name: '  of which Auto Tune (mono)', value: SECONDS / tuneS, unit: 'x real time' },
    { name: 'baseline: plain WAV export (pcm16, stereo)', value: SECONDS / exportS, unit: 'x real time' },
  ]
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await run()) console.log(`${r.name}: ${r.value.toFixed(2)} ${r.unit}${r.detail ? ` (${r.detail})` : ''}`)
}
