import { afterEach, describe, expect, it, vi } from 'vitest'
import { errorMessage, OFFLINE, PAGE_TROUBLE, RATE_LIMITED, SERVER_TROUBLE, TIMED_OUT, UNREACHABLE } from './error-message.ts'

// Users saw "TypeError: Failed to fetch". Every failure says what happened and
// what to do.

afterEach(() => vi.unstubAllGlobals())

describe('errorMessage', () => {
  it('network failures, offline or not', () => {
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe(UNREACHABLE)
    expect(errorMessage(new TypeError('NetworkError when attempting to fetch resource.'))).toBe(UNREACHABLE)
    expect(errorMessage(Object.assign(new Error('Failed to send a request to the Edge Function'), { name: 'FunctionsFetchError' }))).toBe(
      UNREACHABLE,
    )
    expect(errorMessage('TypeError: Failed to fetch')).toBe(UNREACHABLE)
    vi.stubGlobal('navigator', { onLine: false })
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe(OFFLINE)
  })

  it('timeouts, server errors and the page’s own bugs', () => {
    expect(errorMessage(new DOMException('The operation timed out.', 'TimeoutError'))).toBe(TIMED_OUT)
    expect(errorMessage({ status: 502, message: 'Bad Gateway' })).toBe(SERVER_TROUBLE)
    expect(errorMessage({ status: 500, message: 'Edge Function returned a non-2xx status code' })).toBe(SERVER_TROUBLE)
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    expect(errorMessage(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(PAGE_TROUBLE)
    expect(errorMessage(new TypeError('x.map is not a function'))).toBe(PAGE_TROUBLE)
  })

  it('keeps messages meant for people, from Errors and error-shaped objects', () => {
    expect(errorMessage(new Error('That username is taken. Try another one.'))).toBe('That username is taken. Try another one.')
    expect(errorMessage({ message: 'new row violates row-level security policy', code: '42501' })).toBe(
      'new row violates row-level security policy',
    )
    expect(errorMessage({ status: 400, message: 'Password should be at least 8 characters.' })).toBe(
      'Password should be at least 8 characters.',
    )
    expect(errorMessage('')).toBe(PAGE_TROUBLE)
  })

  it('GoTrue’s per-address rate limit (429 "Request rate limit reached") in words', () => {
    expect(
      errorMessage({ name: 'AuthApiError', status: 429, code: 'over_request_rate_limit', message: 'Request rate limit reached' }),
    ).toBe(RATE_LIMITED)
    expect(RATE_LIMITED).toMatch(/wait a while/)
  })
})
