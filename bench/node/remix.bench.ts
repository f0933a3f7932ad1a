/**
 * Remix Studio: analysis time of a 3-minute track, and the render speed of a 3-minute remix with
 * every tool and effect on, in times real time, against the plain export of the same source in
 * the same run. Everything runs in this Node process on the pure code the app runs (kernels,
 * chains, the worker render functions), on one thread, one stage after the other:
 *
 *   analysis   analyseRemixSource (tempo + beat grid, key, pitch track), as the analysis worker
 *   remix      Beat Match (timeStretch of the left, then the right channel, to 128 BPM)
 *              → Auto Tune + Harmonize (renderRemixTools: the worklet's chain, quantum by quantum)
 *              + three sample layers (layerLoop: drums, bass, synth loops on the beat grid)
 *              → reverb 50, delay 50, distortion 50 (the remix page's defaults) through the
 *                channel strip's chain, quantum by quantum (StemMix, the export's strip renderer)
 *              → 16-bit WAV (encodeWav pcm16)
 *   baseline   the plain export: the source through a strip at the mixer's track defaults
 *              (StemMix), then encodeWav pcm16
 *
 * Speeds are the rendered audio's duration over the wall time (the remix is a little shorter
 * than its source once stretched to 128 BPM); the remix line adds this process's CPU time over the
 * same stages, which other jobs on the machine disturb less than wall time. The source is a 3-minute composer piece rendered
 * at 44.1 kHz (workers/composer-test-render.ts), stereo (the right channel a delayed, quieter copy).
 * Targets: analysis < 3 s, remix ≥ 10x real time.
 *
 * `parallel`: the two channel stretches in two worker threads at once (the app may run them in
 * two workers), wall time of both, measured separately from the one-core figure above.
 *
 * Run: npm run bench -- remix    (or standalone: npx tsx bench/node/remix.bench.ts)
 */
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { compose } from '../../workers/composer/index.ts'
import { renderScore } from '../../workers/composer-test-render.ts'
import { analyseRemixSource } from '../../workers/remix-analysis.ts'
import { renderRemixTools } from '../../workers/remix-tools-render.ts'
import { StemMix } from '../../workers/stem-render.ts'
import { stripModule } from '../../audio-worklets/strip-module.node.ts'
import { encodeWav } from '../../workers/wav-encoding.ts'
import { timeStretch } from '../../dsp/time-stretch.ts'
import { STRIP_PARAM_DESCRIPTORS, type StripParamName } from '../../audio-worklets/channel-strip-params.ts'
import { layerLoop } from '../../src/engine/remix/sample-layer.ts'
import { TRACK_DEFAULTS } from '../../src/engine/mixer-model.ts'
import type { BenchResult } from '../types.ts'

const SR = 44100
const SECONDS = 180
const TARGET_BPM = 128

type Strip = Record<StripParamName, number>
const NEUTRAL = Object.fromEntries(STRIP_PARAM_DESCRIPTORS.map((d) => [d.name, d.defaultValue])) as Strip
const TRACK_STRIP: Strip = {
  ...NEUTRAL,
  volume: TRACK_DEFAULTS.volume,
  pan: TRACK_DEFAULTS.pan,
  reverb: TRACK_DEFAULTS.reverb,
  ...TRACK_DEFAULTS.effects,
  enabled: 1,
}
const REMIX_STRIP: Strip = { ...NEUTRAL, reverb: 50, delay: 50, distortion: 50 }

const time = <T>(f: () => T): [T, number] => {
  const start = performance.now()
  const out = f()
  return [out, (performance.now() - start) / 1000]
}

function strip(controls: Strip, channels: Float32Array[]): Float32Array[] {
  const mix = new StemMix(channels[0]!.length, SR, stripModule())
  mix.addTrack({ controls, channels, startFrame: 0 })
  return [mix.left, mix.right]
}

/** A loop of `beats` beats at `bpm`: drums (kick + hat noise), bass (sine) or synth (saw-ish chord). */
function loop(kind: 'drums' | 'bass' | 'synth', bpm: number, beats = 8): Float32Array {
  const beat = (60 / bpm) * SR
  const x = new Float32Array(Math.round(beats * beat))
  let s = 12345
  for (let i = 0; i < x.length; i++) {
    const t = (i % beat) / SR
    if (kind === 'drums') {
      s = (s * 1103515245 + 12345) >>> 0
      x[i] =
        0.6 * Math.sin(2 * Math.PI * 55 * t) * Math.exp(-t / 0.08) +
        0.2 * (s / 2 ** 31 - 1) * Math.exp(-((i + beat / 2) % beat) / SR / 0.02)
    } else if (kind === 'bass') {
      x[i] = 0.4 * Math.sin((2 * Math.PI * 55 * i) / SR) * Math.exp(-t / 0.3)
    } else {
      for (const f of [220, 277.18, 329.63])
        x[i]! += 0.1 * Math.sin((2 * Math.PI * f * i) / SR) + 0.05 * Math.sin((4 * Math.PI * f * i) / SR)
    }
  }
  return x
}

/** Both channel stretches at once in two worker threads; wall seconds from posting to both results. */
async function parallelStretch(l: Float32Array, r: Float32Array, stretch: number): Promise<number> {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads')
    require('tsx/cjs')
    const { timeStretch } = require(workerData.module)
    parentPort.once('message', ({ x, stretch, sampleRate }) => {
      const out = timeStretch(x, stretch, sampleRate)
      parentPort.postMessage(out, [out.buffer])
    })
    parentPort.postMessage('ready')`
  const module = new URL('../../dsp/time-stretch.ts', import.meta.url).pathname
  const workers = [0, 1].map(() => new Worker(source, { eval: true, workerData: { module } }))
  try {
    await Promise.all(workers.map((w) => new Promise((ok) => w.once('message', ok))))
    const start = performance.now()
    await Promise.all(
      workers.map(
        (w, i) =>
          new Promise((ok) => {
            w.once('message', ok)
            const x = (i === 0 ? l : r).slice()
            w.postMessage({ x, stretch, sampleRate: SR }, [x.buffer])
          }),
      ),
    )
    return (performance.now() - start) / 1000
  } finally {
    await Promise.all(workers.map((w) => w.terminate()))
  }
}

export async function run(): Promise<BenchResult[]> {
  const score = compose({ description: 'remix bench', genre: 'pop', mood: 'happy', minDurationSeconds: SECONDS })
  const left = renderScore(score, SECONDS, SR)
  const right = new Float32Array(left.length)
  for (let i = 7; i < right.length; i++) right[i] = 0.8 * left[i - 7]!

  const [, exportS] = time(() => encodeWav(strip(TRACK_STRIP, [left, right]), SR, 'pcm16'))
  const [analysis, analysisS] = time(() => analyseRemixSource([left, right], SR))

  const stretch = analysis.bpm / TARGET_BPM
  const cpuBefore = process.cpuUsage()
  const [stretched, stretchS] = time(() => [timeStretch(left, stretch, SR), timeStretch(right, stretch, SR)])
  const frames = stretched[0]!.length
  const controls = {
    autoTune: 1,
    retune: 80,
    harmonize: 1,
    harmonyMix: 50,
    tonic: analysis.key.tonic,
    mode: analysis.key.mode === 'minor' ? 1 : 0,
  }
  const [tuned, toolsS] = time(() => renderRemixTools(stretched, controls, SR))
  const loops = { drums: loop('drums', 120), bass: loop('bass', 100), synth: loop('synth', 140) }
  const loopBpm = { drums: 120, bass: 100, synth: 140 }
  const grid = { bpm: TARGET_BPM, firstBeat: analysis.firstBeat * stretch }
  const [, layersS] = time(() => {
    for (const kind of ['drums', 'bass', 'synth'] as const) {
      const layer = layerLoop(loops[kind], loopBpm[kind], grid, frames, SR, 0.7)
      for (let i = 0; i < frames; i++) {
        tuned[0][i]! += layer[i]!
        tuned[1][i]! += layer[i]!
      }
    }
  })
  const [mixed, effectsS] = time(() => strip(REMIX_STRIP, tuned))
  const [, encodeS] = time(() => encodeWav(mixed, SR, 'pcm16'))
  const cpu = process.cpuUsage(cpuBefore)
  const remixCpuS = (cpu.user + cpu.system) / 1e6
  const remixS = stretchS + toolsS + layersS + effectsS + encodeS
  const remixSeconds = frames / SR
  const parallelS = await parallelStretch(left, right, stretch)

  const x = (seconds: number, audio = remixSeconds) => audio / seconds
  return [
    {
      name: 'analysis of 3 min (tempo+grid, key, pitch)',
      value: analysisS,
      unit: 's',
      detail: `target < 3 s; found ${analysis.bpm} BPM (score ${score.bpm}), ${analysis.key.name}`,
    },
    {
      name: 'remix render, every tool and effect on (one thread)',
      value: x(remixS),
      unit: 'x real time',
      detail:
        `target ≥ 10x; ${remixS.toFixed(2)} s wall, ${remixCpuS.toFixed(2)} s CPU (${x(remixCpuS).toFixed(0)}x) for ` +
        `${remixSeconds.toFixed(1)} s of stereo`,
    },
    { name: '  Beat Match stretch, L then R', value: x(stretchS), unit: 'x real time', detail: `${stretchS.toFixed(2)} s` },
    { name: '  Auto Tune + Harmonize (remix tools chain)', value: x(toolsS), unit: 'x real time', detail: `${toolsS.toFixed(2)} s` },
    { name: '  three sample layers', value: x(layersS), unit: 'x real time', detail: `${layersS.toFixed(2)} s` },
    { name: '  reverb + delay + distortion (strip chain)', value: x(effectsS), unit: 'x real time', detail: `${effectsS.toFixed(2)} s` },
    { name: '  WAV encode (pcm16)', value: x(encodeS), unit: 'x real time', detail: `${encodeS.toFixed(2)} s` },
    {
      name: 'remix with the two stretches in 2 workers',
      value: x(remixS - stretchS + parallelS),
      unit: 'x real time',
      detail: `stretches ${parallelS.toFixed(2)} s wall in parallel (vs ${stretchS.toFixed(2)} s one after the other)`,
    },
    {
      name: 'baseline: plain export (strip at track defaults + pcm16)',
      value: x(exportS, SECONDS),
      unit: 'x real time',
      detail: `${exportS.toFixed(2)} s for ${SECONDS} s`,
    },
  ]
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await run()) console.log(`${r.name}: ${r.value.toFixed(2)} ${r.unit}${r.detail ? ` (${r.detail})` : ''}`)
}
