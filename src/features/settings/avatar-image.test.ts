import { describe, expect, it } from 'vitest'
import { centreSquare } from './avatar-image.ts'

describe('centreSquare', () => {
  it('takes the centred square of landscape, portrait and square pictures', () => {
    expect(centreSquare(1920, 1080)).toEqual({ sx: 420, sy: 0, size: 1080 })
    expect(centreSquare(300, 500)).toEqual({ sx: 0, sy: 100, size: 300 })
    expect(centreSquare(256, 256)).toEqual({ sx: 0, sy: 0, size: 256 })
    expect(centreSquare(101, 100)).toEqual({ sx: 0, sy: 0, size: 100 })
  })
})

describe('isOwnPictureUrl', () => {
  it('accepts our paths, browser-made pictures and our public Storage; refuses third parties', async () => {
    const { isOwnPictureUrl } = await import('../../backend/account-settings.ts')
    const backend = 'http://127.0.0.1:8080'
    expect(isOwnPictureUrl('/images/a.png', backend)).toBe(true)
    expect(isOwnPictureUrl('data:image/png;base64,AAAA', backend)).toBe(true)
    expect(isOwnPictureUrl('http://127.0.0.1:8080/storage/v1/object/public/avatars/u/avatar?v=1', backend)).toBe(true)
    expect(isOwnPictureUrl('//evil.example/a.png', backend)).toBe(false)
    expect(isOwnPictureUrl('https://evil.example/storage/v1/object/public/avatars/u/avatar', backend)).toBe(false)
    expect(isOwnPictureUrl('http://127.0.0.1:8080/rest/v1/profiles', backend)).toBe(false)
    expect(isOwnPictureUrl(null, backend)).toBe(false)
  })
})
