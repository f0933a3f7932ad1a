/**
 * The player's deck: one HTMLAudioElement streamed through a MediaElementAudioSourceNode into the
 * master bus (so playback starts before the whole file is downloaded, and effects/meters/visuals
 * see it). Same-origin files only, so cross-origin isolation (COEP) is no obstacle.
 *
 *   getPlayerDeck(): PlayerDeck
 *     load(audioUrl, label): Promise<void>   resolves 'idb:<id>' too; rejects DeckError on bad input
 *     play(): Promise<void>                  unlocks the audio context; rejects DeckError
 *     pause(); seek(seconds); setVolume(0..100); stop()
 *     setItemGainDb(db)                      the current song's loudness normalisation, multiplied with the volume
 *     on(listener): () => void               'time' | 'ended' | 'error' | 'playing' | 'paused' events
 *
 * Volume 0..100 maps to gain (v/100)² so equal slider steps sound roughly equally loud.
 */
import type { IAudioContext, IGainNode, IMediaElementAudioSourceNode } from 'standardized-audio-context'
import { unlockAudio, getAudioContext } from './audio-context.ts'
import { getMasterBus } from './master-bus.ts'
import { resolveAudioUrl, UserAudioError } from '../lib/user-audio-store.ts'

export type DeckEvent =
  | { type: 'time'; position: number; duration: number }
  | { type: 'ended' }
  | { type: 'playing' }
  | { type: 'paused' }
  | { type: 'error'; message: string }

export class DeckError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DeckError'
  }
}

export interface PlayerDeck {
  load(audioUrl: string, label: string): Promise<void>
  play(): Promise<void>
  pause(): void
  stop(): void
  seek(seconds: number): void
  setVolume(volume: number): void
  /** The loaded song's normalisation gain in dB (src/domain/playback/loudness-normalisation.ts); 0 = as it is. */
  setItemGainDb(db: number): void
  on(listener: (e: DeckEvent) => void): () => void
  readonly element: HTMLAudioElement
}

export const volumeToGain = (volume: number): number => {
  const v = Math.min(100, Math.max(0, Number.isFinite(volume) ? volume : 0)) / 100
  return v * v
}

/** The deck's one gain node: the volume's gain times the song's loudness normalisation (dB). */
export const deckGain = (volume: number, itemGainDb: number): number =>
  volumeToGain(volume) * (Number.isFinite(itemGainDb) ? 10 ** (itemGainDb / 20) : 1)

const MEDIA_ERRORS: Record<number, string> = {
  1: 'loading was aborted',
  2: 'a network error stopped the download',
  3: 'the file is corrupt or in an unsupported format',
  4: 'the file is missing, corrupt or in an unsupported format',
}

class Deck implements PlayerDeck {
  readonly element: HTMLAudioElement
  private listeners = new Set<(e: DeckEvent) => void>()
  private source: IMediaElementAudioSourceNode<IAudioContext> | null = null
  private gain: IGainNode<IAudioContext> | null = null
  private volume = 80
  /** Normalisation gain of the loaded song (dB); the one gain node carries deckGain(volume, this). */
  private itemGainDb = 0
  private release: () => void = () => {}
  private label = ''
  private loadToken = 0

  constructor() {
    const el = new Audio()
    el.preload = 'auto'
    this.element = el
    el.addEventListener('timeupdate', () => this.emitTime())
    el.addEventListener('durationchange', () => this.emitTime())
    el.addEventListener('seeked', () => this.emitTime())
    el.addEventListener('ended', () => this.emit({ type: 'ended' }))
    el.addEventListener('playing', () => this.emit({ type: 'playing' }))
    el.addEventListener('pause', () => this.emit({ type: 'paused' }))
    el.addEventListener('error', () => {
      if (!el.getAttribute('src')) return
      this.fail(this.mediaErrorMessage(), el.error)
    })
  }

  /** One wording per failure, whether the element's error event or a rejected play() reports it. */
  private mediaErrorMessage(): string {
    const reason = MEDIA_ERRORS[this.element.error?.code ?? 4] ?? 'it could not be decoded'
    return `Could not play "${this.label}": ${reason}.`
  }

  private emit(e: DeckEvent) {
    for (const l of this.listeners) l(e)
  }

  private emitTime() {
    const d = this.element.duration
    this.emit({ type: 'time', position: this.element.currentTime, duration: Number.isFinite(d) ? d : 0 })
  }

  private fail(message: string, cause?: unknown) {
    console.error('[player]', message, cause ?? '')
    this.emit({ type: 'error', message })
  }

  private ensureGraph() {
    if (this.source) return
    const ctx = getAudioContext()
    this.source = ctx.createMediaElementSource(this.element)
    this.gain = ctx.createGain()
    this.gain.gain.value = deckGain(this.volume, this.itemGainDb)
    this.source.connect(this.gain)
    this.gain.connect(getMasterBus().input)
  }

  async load(audioUrl: string, label: string): Promise<void> {
    const token = ++this.loadToken
    this.label = label
    this.element.pause()
    let resolved
    try {
      resolved = await resolveAudioUrl(audioUrl)
    } catch (err) {
      const why = err instanceof UserAudioError ? err.message : 'its audio could not be found'
      const message = `Could not play "${label}": ${why}`
      this.fail(message, err)
      throw new DeckError(message)
    }
    if (token !== this.loadToken) {
      resolved.release()
      return
    }
    this.release()
    this.release = resolved.release
    this.element.src = resolved.url
    this.element.load()
  }

  async play(): Promise<void> {
    this.ensureGraph()
    await unlockAudio()
    try {
      await this.element.play()
    } catch (err) {
      // AbortError means a newer load()/pause() superseded this play: not a failure.
      if (err instanceof DOMException && err.name === 'AbortError') return
      const message =
        err instanceof DOMException && err.name === 'NotAllowedError'
          ? `Could not play "${this.label}": the browser blocked playback; press play again.`
          : this.mediaErrorMessage()
      console.error('[player]', message, err)
      throw new DeckError(message)
    }
  }

  pause() {
    this.element.pause()
  }

  stop() {
    this.loadToken++
    this.element.pause()
    this.element.removeAttribute('src')
    this.element.load()
    this.release()
    this.release = () => {}
  }

  seek(seconds: number) {
    if (!Number.isFinite(seconds)) return
    const d = this.element.duration
    const max = Number.isFinite(d) ? d : Infinity
    this.element.currentTime = Math.min(Math.max(0, seconds), max)
    this.emitTime()
  }

  setVolume(volume: number) {
    this.volume = Math.min(100, Math.max(0, volume))
    this.applyGain()
  }

  setItemGainDb(db: number) {
    this.itemGainDb = Number.isFinite(db) ? db : 0
    this.applyGain()
  }

  private applyGain() {
    if (this.gain) this.gain.gain.setTargetAtTime(deckGain(this.volume, this.itemGainDb), this.gain.context.currentTime, 0.015)
  }

  on(listener: (e: DeckEvent) => void) {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }
}

let deck: PlayerDeck | null = null

export function getPlayerDeck(): PlayerDeck {
  if (!deck) deck = new Deck()
  return deck
}
