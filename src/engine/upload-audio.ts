/**
 * Upload validation and decoding for the mixer.
 *
 * Limits (documented in the README, shown in the UI): at most 50 MB per file and 10 minutes of audio.
 *   checkUploadFile(file)          throws UploadError for an empty, oversized or non-audio file
 *   decodeUpload(ctx, file, { onProgress?(0..1), signal? }) → Promise<DecodedUpload>
 *       reads with progress, decodes with decodeAudioData (resampled to the context's rate),
 *       refuses audio longer than the limit; every failure is an UploadError with a user message.
 */
import type { IAudioContext } from 'standardized-audio-context'

export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024
export const MAX_UPLOAD_SECONDS = 10 * 60

const AUDIO_EXTENSIONS = ['wav', 'wave', 'mp3', 'ogg', 'oga', 'opus', 'flac', 'm4a', 'aac', 'webm', 'mp4']

export class UploadError extends Error {
  constructor(
    readonly title: string,
    message: string,
  ) {
    super(message)
    this.name = 'UploadError'
  }
}

export interface DecodedUpload {
  name: string
  sampleRate: number
  channels: Float32Array[]
  duration: number
}

export function trackNameFromFile(fileName: string): string {
  const base = fileName.replace(/\.[^.]+$/, '').trim()
  return (base || 'Upload').slice(0, 60)
}

export function checkUploadFile(file: Pick<File, 'name' | 'size' | 'type'>): void {
  const ext = file.name.toLowerCase().split('.').pop() ?? ''
  const looksAudio =
    file.type.startsWith('audio/') || file.type === 'video/webm' || file.type === 'video/mp4' || AUDIO_EXTENSIONS.includes(ext)
  if (!looksAudio) throw new UploadError('Unsupported file', `"${file.name}" is not an audio file. Use WAV, MP3, OGG, FLAC, M4A or WebM.`)
  if (file.size === 0) throw new UploadError('Empty file', `"${file.name}" is empty.`)
  if (file.size > MAX_UPLOAD_BYTES) {
    throw new UploadError(
      'File too large',
      `"${file.name}" is ${(file.size / 1048576).toFixed(1)} MB; the limit is ${MAX_UPLOAD_BYTES / 1048576} MB.`,
    )
  }
}

function readWithProgress(file: File, onProgress: (f: number) => void, signal?: AbortSignal): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total)
    }
    reader.onload = () => resolve(reader.result as ArrayBuffer)
    reader.onerror = () => reject(new UploadError('Upload failed', `"${file.name}" could not be read.`))
    reader.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'))
    signal?.addEventListener('abort', () => reader.abort(), { once: true })
    reader.readAsArrayBuffer(file)
  })
}

export async function decodeUpload(
  ctx: IAudioContext,
  file: File,
  options: { onProgress?: (f: number) => void; signal?: AbortSignal } = {},
): Promise<DecodedUpload> {
  checkUploadFile(file)
  const progress = options.onProgress ?? (() => {})
  // Reading is the measurable part (0..0.6); decoding reports no progress of its own.
  const bytes = await readWithProgress(file, (f) => progress(f * 0.6), options.signal)
  progress(0.6)
  let decoded
  try {
    decoded = await ctx.decodeAudioData(bytes)
  } catch {
    throw new UploadError('Could not read audio', `"${file.name}" is corrupt or in a format this browser cannot decode.`)
  }
  if (decoded.length === 0 || decoded.numberOfChannels === 0) throw new UploadError('Empty audio', `"${file.name}" contains no audio.`)
  if (decoded.duration > MAX_UPLOAD_SECONDS) {
    throw new UploadError(
      'Audio too long',
      `"${file.name}" is ${Math.round(decoded.duration / 60)} minutes long; the limit is ${MAX_UPLOAD_SECONDS / 60} minutes.`,
    )
  }
  const channels: Float32Array[] = []
  for (let c = 0; c < Math.min(2, decoded.numberOfChannels); c++) channels.push(decoded.getChannelData(c).slice())
  progress(1)
  return { name: trackNameFromFile(file.name), sampleRate: decoded.sampleRate, channels, duration: decoded.duration }
}
