// Comlink worker around workers/stem-render.ts: one StemMix per worker, fed track by track; the
// sum is transferred back (no copy).
import { expose, transfer } from 'comlink'
import { StemMix, type StemTrackJob } from './stem-render.ts'

let mix: StemMix | null = null

const api = {
  /** `stripModule`: strip.wasm compiled by the page (one compile serves every worker). */
  begin(length: number, sampleRate: number, stripModule: WebAssembly.Module): void {
    mix = new StemMix(length, sampleRate, stripModule)
  },
  addTrack(job: StemTrackJob, onProgress?: (framesDone: number) => void): void {
    if (!mix) throw new Error('begin() first')
    mix.addTrack(job, onProgress)
  },
  finish(): Float32Array[] {
    if (!mix) throw new Error('begin() first')
    const out = [mix.left, mix.right]
    mix = null
    return transfer(out, [out[0]!.buffer, out[1]!.buffer])
  },
}

export type StemRenderWorkerApi = typeof api
expose(api)
