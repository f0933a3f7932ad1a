// Comlink worker around workers/remix-render.ts; a cancelled render terminates the worker.
import { expose, transfer } from 'comlink'
import { renderRemix, type RemixRenderJob } from './remix-render.ts'

const api = {
  render(job: RemixRenderJob, onProgress?: (fraction: number) => void): Float32Array[] {
    const out = renderRemix(job, onProgress)
    return transfer(
      out,
      out.map((c) => c.buffer as ArrayBuffer),
    )
  },
}

export type RemixRenderWorkerApi = typeof api
expose(api)
