/**
 * What to tell the user about a failure, in words: what happened and what to do. Network failures
 * ("TypeError: Failed to fetch"), timeouts, server errors and the page's own bugs ("Cannot read
 * properties of undefined") never reach the screen as they are; everything else
 * is the error's own message: an Error's, or the `message` of an error-shaped object (supabase-js
 * hands back PostgrestError and StorageError objects, not always Errors), or the value as text.
 */
export const OFFLINE = 'You are offline: reconnect, then try again.'
export const UNREACHABLE = 'Could not reach the server: check your connection, then try again.'
export const TIMED_OUT = 'The server took too long to answer: try again in a moment.'
export const SERVER_TROUBLE = 'The server had a problem and could not finish: try again in a moment.'
export const PAGE_TROUBLE = 'Something went wrong on this page: reload it and try again.'
/** GoTrue's per-address limit ("Request rate limit reached", 429 over_request_rate_limit), in words. */
export const RATE_LIMITED = 'Too many requests from your network for now: wait a while (at most an hour), then try again.'
/** The same limit where it bites at sign-up. */
export const SIGNUP_RATE_LIMITED =
  'Too many accounts were created from your network in the last hour. Wait a while (at most an hour), then try again.'

const NETWORK = /failed to fetch|networkerror|network request failed|load failed|failed to send a request|err_connection|econnrefused/i
// Messages of the JavaScript engine itself: a bug of ours, not a sentence for a user.
const ENGINE =
  /is not a function|cannot read propert|is undefined|is null|is not defined|unexpected token|is not iterable|of undefined|of null/i

const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false

/** An error's name and message, whether it is an Error, an error-shaped object or anything else. */
function nameAndMessage(error: unknown): { name: string; raw: string } {
  const name = typeof error === 'object' && error !== null && 'name' in error ? String((error as { name: unknown }).name) : ''
  const raw =
    error instanceof Error
      ? error.message
      : typeof error === 'object' && error !== null && 'message' in error
        ? String((error as { message: unknown }).message)
        : String(error)
  return { name, raw }
}

const networkFailed = ({ name, raw }: { name: string; raw: string }) =>
  NETWORK.test(raw) || name === 'FunctionsFetchError' || name === 'AuthRetryableFetchError'

/** The request never reached the server (offline, or the connection failed): worth sending again later. */
export function isNetworkFailure(error: unknown): boolean {
  return networkFailed(nameAndMessage(error))
}

export function errorMessage(error: unknown): string {
  const read = nameAndMessage(error)
  const { name, raw } = read
  const status = typeof error === 'object' && error !== null && 'status' in error ? Number((error as { status: unknown }).status) : NaN
  if (networkFailed(read)) return isOffline() ? OFFLINE : UNREACHABLE
  if (name === 'TimeoutError' || /timed? ?out/i.test(raw)) return TIMED_OUT
  if (raw === 'Request rate limit reached') return RATE_LIMITED
  if (status >= 500 && status < 600 && (!raw || raw === '{}' || /internal|non-2xx|bad gateway|unavailable/i.test(raw)))
    return SERVER_TROUBLE
  if ((error instanceof TypeError || error instanceof ReferenceError || error instanceof SyntaxError) && ENGINE.test(raw)) {
    console.error(error)
    return PAGE_TROUBLE
  }
  return raw.replace(/^(TypeError|Error|ReferenceError): /, '') || PAGE_TROUBLE
}
