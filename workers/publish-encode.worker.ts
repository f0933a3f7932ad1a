// Comlink worker around workers/opus-webm.ts: the file is transferred back (no copy).
import { expose, transfer } from 'comlink'
import { encodeOpusWebm, type EncodedAudio } from './opus-webm.ts'

const api = {
  async encodeOpusWebm(channels: Float32Array[], sampleRate: number, bitrateKbps: number): Promise<EncodedAudio> {
    const encoded = await encodeOpusWebm(channels, sampleRate, bitrateKbps)
    return transfer(encoded, [encoded.file])
  },
}

export type PublishEncodeWorkerApi = typeof api
expose(api)
