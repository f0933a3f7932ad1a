// Comlink worker around workers/wav-encoding.ts and wav-decoding.ts; results are transferred
// back (no copy).
import { expose, transfer } from 'comlink'
import { decodeWav, type DecodedWav } from './wav-decoding.ts'
import { encodeWav, type WavFormat } from './wav-encoding.ts'

const api = {
  encodeWav(channels: Float32Array[], sampleRate: number, format: WavFormat): ArrayBuffer {
    const wav = encodeWav(channels, sampleRate, format)
    return transfer(wav, [wav])
  },
  decodeWav(file: ArrayBuffer): DecodedWav {
    const decoded = decodeWav(file)
    return transfer(
      decoded,
      decoded.channels.map((c) => c.buffer as ArrayBuffer),
    )
  },
}

export type WavWorkerApi = typeof api
expose(api)
