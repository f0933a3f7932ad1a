/**
 * The General MIDI bank (src/config/soundfont.ts), fetched from our own origin on first use and
 * kept for the page's life. Nothing imports this before something renders instruments, so the bank
 * never enters the landing page's first load.
 */
import type { BasicSoundBank } from 'spessasynth_core'
import { GM_BANK_URL } from '../../config/soundfont.ts'

export class GmBankError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'GmBankError'
  }
}

let bytes: Promise<ArrayBuffer> | null = null
let parsed: Promise<BasicSoundBank> | null = null

/** The bank file's bytes (shared; copy them before transferring). */
export function loadGmBankBytes(url: string = GM_BANK_URL): Promise<ArrayBuffer> {
  if (!bytes) {
    bytes = fetch(url).then(async (response) => {
      if (!response.ok) throw new GmBankError(`The instrument sounds could not be loaded (HTTP ${response.status}).`)
      return response.arrayBuffer()
    })
    bytes.catch(() => (bytes = null))
  }
  return bytes
}

/** The parsed bank, ready for a SpessaSynthProcessor (its Vorbis samples are decoded on first use and kept). */
export function loadGmSoundBank(): Promise<BasicSoundBank> {
  if (!parsed) {
    parsed = (async () => {
      const [{ SoundBankLoader, BasicSoundBank }, data] = await Promise.all([import('spessasynth_core'), loadGmBankBytes()])
      await BasicSoundBank.isSF3DecoderReady
      try {
        return SoundBankLoader.fromArrayBuffer(data)
      } catch (e) {
        throw new GmBankError('The instrument sounds are damaged and could not be read.', { cause: e })
      }
    })()
    parsed.catch(() => (parsed = null))
  }
  return parsed
}
