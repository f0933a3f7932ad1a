// Comlink worker for the Remix Studio: keeps the decoded source, analyses it (tempo + grid, key,
// pitch) and prepares it (Beat Match stretch, loops on the grid); the page never freezes.
import { expose, transfer } from 'comlink'
import { analyseRemixSource, type RemixAnalysis } from './remix-analysis.ts'
import { prepareRemix, type PrepareJob, type PreparedRemix } from './remix-prepare.ts'

let channels: Float32Array[] | null = null

function buffersOf(p: PreparedRemix): ArrayBuffer[] {
  return [...p.source.map((c) => c.buffer as ArrayBuffer), ...Object.values(p.layers).map((l) => l.loop.buffer as ArrayBuffer)]
}

const api = {
  /** Takes the source (transferred) and answers its analysis; bad input rejects with a clear message. */
  load(source: Float32Array[], sampleRate: number): RemixAnalysis {
    channels = null
    const analysis = analyseRemixSource(source, sampleRate)
    channels = source
    return analysis
  },
  prepare(job: PrepareJob, onProgress?: (fraction: number) => void): PreparedRemix {
    if (!channels) throw new Error('Pick a source first')
    const prepared = prepareRemix(channels, job, onProgress)
    return transfer(prepared, buffersOf(prepared))
  },
}

export type RemixWorkerApi = typeof api
expose(api)
