// Comlink worker around workers/remix-analysis.ts: the page never freezes while a source is analysed.
import { expose } from 'comlink'
import { analyseRemixSource, type RemixAnalysis } from './remix-analysis.ts'

const api = {
  analyse(channels: Float32Array[], sampleRate: number): RemixAnalysis {
    return analyseRemixSource(channels, sampleRate)
  },
}

export type RemixAnalysisWorkerApi = typeof api
expose(api)
