import type { IAudioBuffer, IAudioContext } from 'standardized-audio-context'
import { resolveAudioUrl, UserAudioError } from '../lib/user-audio-store.ts'

// Fetching and decoding a queue item for the deck, and the words for every way it can fail.

/** A failure to play an item, in words the player shows as they are. */
export class DeckError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DeckError'
  }
}

export const MEDIA_ERRORS: Record<number, string> = {
  1: 'loading was aborted',
  2: 'a network error stopped the download',
  3: 'the file is corrupt or in an unsupported format',
  4: 'the file is missing, corrupt or in an unsupported format',
}

export const REASON = {
  missing: 'the file is missing',
  network: 'a network error stopped the download',
  decode: 'the file is corrupt or in an unsupported format',
}

export function resolveFailure(label: string, err: unknown): DeckError {
  const why = err instanceof UserAudioError ? err.message.replace(/\.$/, '') : 'its audio could not be found'
  console.error('[player]', `Could not play "${label}": ${why}`, err)
  return new DeckError(`Could not play "${label}": ${why}.`)
}

/** The file's bytes, decoded on `ctx` (resampled to its rate). Rejects DeckError with the reason. */
export async function decodeItem(ctx: IAudioContext, audioUrl: string, label: string): Promise<IAudioBuffer> {
  const fail = (why: string, cause?: unknown) => {
    console.error('[player]', `Could not play "${label}": ${why}`, cause ?? '')
    return new DeckError(`Could not play "${label}": ${why}.`)
  }
  let resolved
  try {
    resolved = await resolveAudioUrl(audioUrl)
  } catch (err) {
    throw resolveFailure(label, err)
  }
  let bytes: ArrayBuffer
  try {
    const response = await fetch(resolved.url)
    if (!response.ok) throw fail(`${REASON.missing} (the server answered ${response.status})`)
    bytes = await response.arrayBuffer()
  } catch (err) {
    throw err instanceof DeckError ? err : fail(REASON.network, err)
  } finally {
    resolved.release()
  }
  try {
    return await ctx.decodeAudioData(bytes)
  } catch (err) {
    throw fail(REASON.decode, err)
  }
}
