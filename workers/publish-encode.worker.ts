// Comlink worker around workers/opus-webm.ts: the file is transferred back (no copy). A published
// track's loudness (dsp/song-loudness.ts) is measured here too, on the audio before it is encoded.
import { expose, transfer } from 'comlink'
import { measureSongLoudness, type SongLoudness } from '../dsp/song-loudness.ts'
import { encodeOpusWebm, type EncodedAudio } from './opus-webm.ts'

const api = {
  async encodeOpusWebm(channels: Float32Array[], sampleRate: number, bitrateKbps: number): Promise<EncodedAudio> {
    const encoded = await encodeOpusWebm(channels, sampleRate, bitrateKbps)
    return transfer(encoded, [encoded.file])
  },
  async encodeAndMeasure(channels: Float32Array[], sampleRate: number, bitrateKbps: number): Promise<EncodedAudio & SongLoudness> {
    const loudness = measureSongLoudness(channels, sampleRate)
    const encoded = await encodeOpusWebm(channels, sampleRate, bitrateKbps)
    return transfer({ ...encoded, ...loudness }, [encoded.file])
  },
}

export type PublishEncodeWorkerApi = typeof api
expose(api)
