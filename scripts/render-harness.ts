/// <reference types="vite/client" />
// Runs in the browser page the scripts open (scripts/harness-browser.ts): the same composer and
// renderer the app uses. Audio goes back as 16-bit interleaved PCM in base64 (compact over CDP).
// Served by Vite (the reference above types the renderer's `?url` asset imports).
import { compose, type ComposeRequest } from '../workers/composer/index.ts'
import { renderScore, type ScorePart } from '../src/engine/score-renderer.ts'
import { renderRiser } from '../src/engine/score-fx.ts'

export type RenderJob =
  | { kind: 'song'; request: ComposeRequest }
  /** A loop: `bars` bars from the first section named `section`, only `parts`. */
  | { kind: 'loop'; request: ComposeRequest; section: string; bars: number; parts: ScorePart[] }
  | { kind: 'riser'; seconds: number }

export interface RenderResult {
  pcm: string
  sampleRate: number
  channels: number
  seconds: number
  renderMs: number
  bpm?: number
  summary: string
}

function toBase64Pcm16(buffer: AudioBuffer): string {
  const frames = buffer.length
  const chans = buffer.numberOfChannels
  const pcm = new Int16Array(frames * chans)
  for (let c = 0; c < chans; c++) {
    const data = buffer.getChannelData(c)
    for (let i = 0; i < frames; i++) pcm[i * chans + c] = Math.max(-32768, Math.min(32767, Math.round(data[i]! * 32767)))
  }
  const bytes = new Uint8Array(pcm.buffer)
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

declare global {
  interface Window {
    renderRequest: (req: ComposeRequest) => Promise<RenderResult>
    renderJob: (job: RenderJob) => Promise<RenderResult>
  }
}

window.renderJob = async (job) => {
  const t0 = performance.now()
  if (job.kind === 'riser') {
    const buffer = await renderRiser(job.seconds)
    return {
      pcm: toBase64Pcm16(buffer),
      sampleRate: buffer.sampleRate,
      channels: buffer.numberOfChannels,
      seconds: buffer.duration,
      renderMs: performance.now() - t0,
      summary: 'riser',
    }
  }
  const score = compose(job.request)
  let buffer: AudioBuffer
  if (job.kind === 'song') {
    buffer = await renderScore(score)
  } else {
    const section = score.sections.find((s) => s.name === job.section) ?? score.sections[1]!
    buffer = await renderScore(score, { from: section.startTime, to: section.startTime + job.bars * score.barSeconds, parts: job.parts })
  }
  return {
    pcm: toBase64Pcm16(buffer),
    sampleRate: buffer.sampleRate,
    channels: buffer.numberOfChannels,
    seconds: buffer.duration,
    renderMs: performance.now() - t0,
    bpm: score.bpm,
    summary: `${score.bpm} BPM ${score.key.name} ${score.mode} ${score.sections.map((s) => s.name).join('/')}`,
  }
}

window.renderRequest = (request) => window.renderJob({ kind: 'song', request })
