import type { DeckEvent } from './deck-api.ts'

/** What the stand-in reads and drives of the deck. */
export interface MediaDeck {
  readonly position: number
  readonly duration: number
  readonly isPlaying: boolean
  readonly hasItem: boolean
  seek(seconds: number): void
  play(): Promise<void>
  pause(): void
}

/** The media-element surface wavesurfer.js reads and drives, following the deck. */
export class DeckMedia extends EventTarget {
  src = ''
  currentSrc = ''
  autoplay = false
  controls = false
  muted = false
  volume = 1
  playbackRate = 1
  preservesPitch = true
  seeking = false
  ended = false
  /** The deck reports its failures as 'error' events with words; there is no MediaError to read. */
  error: MediaError | null = null

  constructor(private readonly deck: MediaDeck) {
    super()
  }

  get currentTime(): number {
    return this.deck.position
  }

  set currentTime(seconds: number) {
    this.deck.seek(seconds)
  }

  get duration(): number {
    return this.deck.hasItem ? this.deck.duration : NaN
  }

  get paused(): boolean {
    return !this.deck.isPlaying
  }

  get readyState(): number {
    return this.deck.hasItem ? 4 : 0
  }

  play(): Promise<void> {
    return this.deck.play()
  }

  pause() {
    this.deck.pause()
  }

  load() {}
  remove() {}
  removeAttribute() {}
  canPlayType(): CanPlayTypeResult {
    return ''
  }

  onSeek(start: boolean) {
    this.seeking = start
    this.dispatchEvent(new Event(start ? 'seeking' : 'seeked'))
  }

  onDeckEvent(e: DeckEvent) {
    const fire = (type: string) => this.dispatchEvent(new Event(type))
    if (e.type === 'time') {
      if (e.duration !== this.lastDuration) {
        this.lastDuration = e.duration
        fire('durationchange')
      }
      fire('timeupdate')
    } else if (e.type === 'playing') {
      this.ended = false
      fire('play')
      fire('playing')
    } else if (e.type === 'paused') fire('pause')
    else if (e.type === 'ended') {
      this.ended = true
      fire('ended')
    } else if (e.type === 'error') fire('error')
  }

  private lastDuration = -1
}
