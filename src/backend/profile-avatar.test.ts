import { describe, expect, it } from 'vitest'
import { avatarObjectPath } from './profile-avatar.ts'

describe('avatarObjectPath', () => {
  const backend = 'http://127.0.0.1:8080'
  it('names the avatars object of current and pre-privacy addresses, nothing else', () => {
    expect(avatarObjectPath(`${backend}/storage/v1/object/authenticated/avatars/u-1/avatar?v=2`, backend)).toBe('u-1/avatar')
    expect(avatarObjectPath(`${backend}/storage/v1/object/public/avatars/u-1/avatar?v=1`, `${backend}/`)).toBe('u-1/avatar')
    expect(avatarObjectPath(`${backend}/storage/v1/object/authenticated/profile-banners/u-1/banner`, backend)).toBeNull()
    expect(avatarObjectPath('https://evil.example/storage/v1/object/authenticated/avatars/u-1/avatar', backend)).toBeNull()
    expect(avatarObjectPath(`${backend}/storage/v1/object/authenticated/avatars/../studio-audio/x`, backend)).toBeNull()
    expect(avatarObjectPath('/images/a.png', backend)).toBeNull()
    expect(avatarObjectPath(null, backend)).toBeNull()
  })
})
