/**
 * Speed of the loudness measurement stored with every song (dsp/song-loudness.ts: BS.1770-4
 * integrated loudness and 4x true peak) per minute of stereo audio at 44.1 and 48 kHz, against a
 * plain RMS pass over the same samples measured in the same run. The signal is music-like (a beat
 * under a chord, peaks near −1 dBFS) so the true-peak scan's skipping is exercised as on real songs;
 * white noise is the worst case (every window interpolated). CPU time of this process, best of three.
 */
import { integratedLoudness } from '../../dsp/loudness.ts'
import { measureSongLoudness } from '../../dsp/song-loudness.ts'
import { truePeak } from '../../dsp/true-peak.ts'
import type { BenchResult } from '../types.ts'

const SECONDS = 60

function music(sampleRate: number): Float32Array[] {
  const n = SECONDS * sampleRate
  const l = new Float32Array(n)
  const r = new Float32Array(n)
  let seed = 12345
  for (let i = 0; i < n; i++) {
    const t = i / sampleRate
    const beat = Math.exp(-((t * 2) % 1) * 8)
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    const hiss = (seed / 0x7fffffff - 0.5) * 0.05
    l[i] =
      0.3 * beat * Math.sin(2 * Math.PI * 55 * t) + 0.2 * Math.sin(2 * Math.PI * 440 * t) + 0.1 * Math.sin(2 * Math.PI * 3300 * t) + hiss
    r[i] =
      0.3 * beat * Math.sin(2 * Math.PI * 55 * t) + 0.2 * Math.sin(2 * Math.PI * 554 * t) + 0.1 * Math.sin(2 * Math.PI * 2750 * t) - hiss
  }
  return [l, r]
}

function noise(sampleRate: number): Float32Array[] {
  return [0, 1].map(() => Float32Array.from({ length: SECONDS * sampleRate }, () => (Math.random() - 0.5) * 1.6))
}

function rms(channels: Float32Array[]): number {
  let sum = 0
  for (const c of channels) for (let i = 0; i < c.length; i++) sum += c[i]! * c[i]!
  return Math.sqrt(sum / (channels.length * channels[0]!.length))
}

function cpu(work: () => unknown): number {
  return Math.min(
    ...[0, 1, 2].map(() => {
      const start = process.cpuUsage()
      work()
      const used = process.cpuUsage(start)
      return (used.user + used.system) / 1e6
    }),
  )
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = []
  for (const sampleRate of [44100, 48000]) {
    const signal = music(sampleRate)
    const khz = `${sampleRate / 1000} kHz`
    const base = cpu(() => rms(signal))
    const whole = cpu(() => measureSongLoudness(signal, sampleRate))
    const gated = cpu(() => integratedLoudness(signal, sampleRate))
    const peak = cpu(() => truePeak(signal))
    results.push(
      { name: `plain RMS pass, ${khz}`, value: base * 1000, unit: 'ms CPU per min stereo', detail: 'the baseline' },
      {
        name: `loudness + true peak, ${khz}`,
        value: whole,
        unit: 's CPU per min stereo',
        detail: `${(whole / base).toFixed(1)}x the RMS pass, ${(SECONDS / whole).toFixed(0)}x real time`,
      },
      { name: `  of it integrated loudness`, value: gated * 1000, unit: 'ms', detail: `${(gated / base).toFixed(1)}x RMS` },
      { name: `  of it true peak`, value: peak * 1000, unit: 'ms', detail: `${(peak / base).toFixed(1)}x RMS` },
    )
  }
  const worst = noise(48000)
  const base = cpu(() => rms(worst))
  const all = cpu(() => measureSongLoudness(worst, 48000))
  results.push({
    name: 'white noise (worst case), 48 kHz',
    value: all,
    unit: 's CPU per min stereo',
    detail: `${(all / base).toFixed(1)}x the RMS pass, ${(SECONDS / all).toFixed(0)}x real time`,
  })
  return results
}
