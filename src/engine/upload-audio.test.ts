import { describe, expect, it } from 'vitest'
import { MAX_UPLOAD_BYTES, UploadError, checkUploadFile, trackNameFromFile } from './upload-audio.ts'

const file = (name: string, size: number, type = '') => ({ name, size, type })

describe('upload validation', () => {
  it('accepts audio by MIME type or by extension', () => {
    expect(() => checkUploadFile(file('a.bin', 10, 'audio/mpeg'))).not.toThrow()
    expect(() => checkUploadFile(file('take.WAV', 10))).not.toThrow()
    expect(() => checkUploadFile(file('clip.webm', 10, 'video/webm'))).not.toThrow()
  })

  it('refuses non-audio, empty and oversized files with a clear message', () => {
    expect(() => checkUploadFile(file('notes.txt', 10, 'text/plain'))).toThrow(/not an audio file/)
    expect(() => checkUploadFile(file('a.wav', 0, 'audio/wav'))).toThrow(UploadError)
    expect(() => checkUploadFile(file('a.wav', 0, 'audio/wav'))).toThrow(/empty/)
    expect(() => checkUploadFile(file('big.wav', MAX_UPLOAD_BYTES + 1, 'audio/wav'))).toThrow(/limit is 50 MB/)
    expect(() => checkUploadFile(file('edge.wav', MAX_UPLOAD_BYTES, 'audio/wav'))).not.toThrow()
  })

  it('names a track after the file', () => {
    expect(trackNameFromFile('My Song.final.mp3')).toBe('My Song.final')
    expect(trackNameFromFile('.wav')).toBe('Upload')
  })
})
