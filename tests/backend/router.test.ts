import type { IncomingMessage } from 'node:http'
import { describe, expect, it } from 'vitest'
import { serviceRouter, type Service } from '../../supabase/local/core/router.ts'

// Which service of the route table a request reaches, and with which path.

const service = (name: string, prefixes: string[], rawPath = false): Service & { name: string } => ({
  name,
  prefixes,
  rawPath,
  handle: async () => undefined,
})
const auth = service('auth', ['auth/v1'])
const rest = service('rest', ['rest/v1'])
const storage = service('storage', ['storage/v1'], true)
const functions = service('functions', ['functions/v1', 'api'])
const route = serviceRouter([auth, rest, storage, functions])

function find(rawUrl: string) {
  const found = route({ url: rawUrl } as IncomingMessage, new URL(rawUrl, 'http://local'))
  return (
    found && { service: (found.service as Service & { name: string }).name, prefix: found.prefix, path: found.path, rawPath: found.rawPath }
  )
}

describe('service router', () => {
  it('routes by prefix and hands over the path after it', () => {
    expect(find('/auth/v1/token?grant_type=password')).toEqual({ service: 'auth', prefix: 'auth/v1', path: '/token', rawPath: '/token' })
    expect(find('/rest/v1/songs')).toMatchObject({ service: 'rest', path: '/songs' })
    expect(find('/rest/v1')).toMatchObject({ service: 'rest', path: '/' })
    expect(find('/functions/v1/init-user-tokens')).toMatchObject({
      service: 'functions',
      prefix: 'functions/v1',
      path: '/init-user-tokens',
    })
    expect(find('/api/init-user-tokens')).toMatchObject({ service: 'functions', prefix: 'api', path: '/init-user-tokens' })
  })

  it('leaves everything else to the app', () => {
    for (const url of ['/', '/studio', '/auth/v10/x', '/restv1', '/apis', '/assets/rest/v1.js']) expect(find(url), url).toBeUndefined()
  })

  it('a raw-path service sees the path as sent, and a `..` cannot leave it for another service', () => {
    expect(find('/storage/v1/object/b/a%2Fb/../c?x=1')).toEqual({
      service: 'storage',
      prefix: 'storage/v1',
      path: '/object/b/c',
      rawPath: '/object/b/a%2Fb/../c',
    })
    expect(find('/storage/v1/object/b/../../../rest/v1/songs')).toMatchObject({
      service: 'storage',
      rawPath: '/object/b/../../../rest/v1/songs',
    })
    // Other services see the path URL parsing made of it (and answer for it).
    expect(find('/rest/v1/../../auth/v1/user')).toMatchObject({ service: 'auth', path: '/user' })
    expect(find('/rest/v1/../../storage/v1/object/b/x')).toMatchObject({ service: 'storage', rawPath: '/' })
  })
})
