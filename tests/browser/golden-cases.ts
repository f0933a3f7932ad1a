/**
 * The golden render cases: short, deterministic renders of the audio engine's stages, each a
 * mono float32 signal (golden-compare.ts keeps and compares them).
 *   strip-*         the channel strip's effects (the real worklet, strip-render.ts), 0.5 s at 48 kHz,
 *                   left channel of a stereo test signal (so pan and stereo effects show)
 *   export-master   the export's master stage: the master strip in a worker, then the master bus
 *   score-*         the generator's instruments (melody, bass, drums) and the whole generated mix,
 *                   rendered by the Tone.js score renderer, 1 s at 24 kHz, from 8 s into the piece (its first verse)
 */
import { renderStrip } from './strip-render.ts'
import { noise, sine, SR } from '../../audio-worklets/kernels/test-signals.ts'
import type { StripParams } from '../../src/engine/channel-strip.ts'
import { masterBusPass } from '../../src/engine/offline-mix.ts'
import { renderMasterStripInWorker } from '../../src/engine/stem-render.ts'
import { MASTER_DEFAULTS } from '../../src/engine/mixer-model.ts'
import { compose } from '../../workers/composer/index.ts'
import { renderScore, type ScorePart } from '../../src/engine/score-renderer.ts'

export interface GoldenCase {
  name: string
  sampleRate: number
  render(): Promise<Float32Array>
}

const STRIP_FRAMES = SR / 2

/** A tone, noise and a burst every 0.1 s (transients for the compressor and the delay), different per side. */
function testSignal(seed: number, hz: number): Float32Array {
  const tone = sine(STRIP_FRAMES, hz, 0.25)
  const hiss = noise(STRIP_FRAMES, 0.08, seed)
  return tone.map((v, i) => v + hiss[i]! + (i % (SR / 10) < 480 ? 0.4 * Math.sin(i / 3) : 0))
}

export function stripCase(name: string, params: Partial<StripParams>): GoldenCase {
  return {
    name,
    sampleRate: SR,
    async render() {
      const [left] = await renderStrip(params, testSignal(0x1234567, 220), testSignal(0x7654321, 330))
      return left
    },
  }
}

const SCORE_RATE = 24000
const SCORE = { description: 'golden hour, a warm lofi piano with a walking bass' }

function scoreCase(name: string, parts?: readonly ScorePart[]): GoldenCase {
  return {
    name,
    sampleRate: SCORE_RATE,
    async render() {
      const score = compose(SCORE)
      const buffer = await renderScore(score, {
        sampleRate: SCORE_RATE,
        from: 8,
        to: 9,
        preroll: 2,
        normalise: false,
        ...(parts ? { parts } : {}),
      })
      const l = buffer.getChannelData(0)
      const r = buffer.numberOfChannels > 1 ? buffer.getChannelData(1) : l
      return l.map((v, i) => (v + r[i]!) / 2).slice(0, SCORE_RATE)
    },
  }
}

export const GOLDEN_CASES: GoldenCase[] = [
  stripCase('strip-filters', { lowpass: 60, highpass: 40 }),
  stripCase('strip-drive-compression', { distortion: 60, compression: 70 }),
  stripCase('strip-delay-chorus', { delay: 60, chorus: 50 }),
  stripCase('strip-reverb-pan', { reverb: 60, pan: -40, volume: 80 }),
  {
    name: 'export-master',
    sampleRate: SR,
    async render() {
      const [out] = await masterBusPass(
        await renderMasterStripInWorker([testSignal(0x1234567, 220), testSignal(0x7654321, 330)], MASTER_DEFAULTS, SR),
        SR,
      )
      return out!
    },
  },
  scoreCase('score-melody', ['melody']),
  scoreCase('score-bass', ['bass']),
  scoreCase('score-drums', ['drums']),
  scoreCase('score-mix'),
]
