// Comlink worker around workers/wav-encoding.ts; the encoded file is transferred back (no copy).
import { expose, transfer } from 'comlink'
import { encodeWav, type WavFormat } from './wav-encoding.ts'

const api = {
  encodeWav(channels: Float32Array[], sampleRate: number, format: WavFormat): ArrayBuffer {
    const wav = encodeWav(channels, sampleRate, format)
    return transfer(wav, [wav])
  },
}

export type WavEncoderWorkerApi = typeof api
expose(api)
