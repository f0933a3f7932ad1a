/**
 * The Remix Studio's live preview on the app's audio context: remix voice → channel strip → the
 * app's master bus (the same graph the render's reference engine builds offline).
 *
 *   const preview = new RemixPreview({ onPosition(seconds, playing), onEnded() })
 *   await preview.load(prepared, controls, { at: seconds, play: boolean })   replaces the graph
 *   preview.play() (unlocks audio; call from a gesture) · pause() · seek(seconds)
 *   preview.setLoop(start, end) / setLoop(null)      seconds of the prepared (output) timeline
 *   preview.setControls(controls)                    only changed values are sent; all glide
 *   preview.dispose()
 */
import type { PreparedRemix } from '../../../workers/remix-prepare.ts'
import { getAudioContext, unlockAudio } from '../audio-context.ts'
import { createChannelStrip, loadChannelStrip, STRIP_PARAM_NAMES, type ChannelStrip } from '../channel-strip.ts'
import { getMasterBus } from '../master-bus.ts'
import { REMIX_VOICE_PARAM_NAMES } from '../../../audio-worklets/remix-voice-params.ts'
import { createRemixVoice, loadRemixVoice, type RemixVoice } from './remix-voice-node.ts'
import type { RemixControls } from './remix-render.ts'

export interface PreviewEvents {
  onPosition(seconds: number, playing: boolean): void
  onEnded(): void
}

export class RemixPreview {
  private voice: RemixVoice | null = null
  private strip: ChannelStrip | null = null
  private controls: RemixControls | null = null
  private sampleRate = 48000
  private loop: { start: number; end: number } | null = null
  playing = false

  constructor(private readonly events: PreviewEvents) {}

  get loaded(): boolean {
    return this.voice !== null
  }

  async load(prepared: PreparedRemix, controls: RemixControls, start: { at: number; play: boolean }): Promise<void> {
    const ctx = getAudioContext()
    await Promise.all([loadRemixVoice(ctx), loadChannelStrip(ctx)])
    this.teardown()
    this.sampleRate = prepared.sampleRate
    const position = Math.round(Math.max(0, start.at) * prepared.sampleRate)
    const voice = createRemixVoice(ctx, { source: prepared.source, layers: prepared.layers, playing: false, position }, controls.voice)
    const strip = createChannelStrip(ctx, controls.strip)
    voice.node.connect(strip.node as never)
    strip.node.connect(getMasterBus().input as never)
    voice.onEvent((e) => {
      if (e.type === 'position') {
        this.playing = e.playing
        this.events.onPosition(e.frame / this.sampleRate, e.playing)
      } else if (e.type === 'ended') {
        this.playing = false
        this.events.onEnded()
      }
    })
    this.voice = voice
    this.strip = strip
    this.controls = { voice: { ...controls.voice }, strip: { ...controls.strip } }
    if (this.loop) this.setLoop(this.loop.start, this.loop.end)
    if (start.play) await this.play()
  }

  async play(): Promise<void> {
    await unlockAudio()
    this.playing = true
    this.voice?.send({ type: 'play' })
  }

  pause(): void {
    this.playing = false
    this.voice?.send({ type: 'pause' })
  }

  seek(seconds: number): void {
    this.voice?.send({ type: 'seek', frame: Math.round(Math.max(0, seconds) * this.sampleRate) })
  }

  setLoop(start: number | null, end?: number): void {
    this.loop = start === null || end === undefined || !(end > start) ? null : { start, end }
    const sr = this.sampleRate
    this.voice?.send(
      this.loop
        ? { type: 'loop', start: Math.round(this.loop.start * sr), end: Math.round(this.loop.end * sr) }
        : { type: 'loop', start: 0, end: 0 },
    )
  }

  setControls(next: RemixControls): void {
    const cur = this.controls
    if (!cur) return
    for (const name of REMIX_VOICE_PARAM_NAMES) {
      if (cur.voice[name] !== next.voice[name]) this.voice?.set(name, next.voice[name])
    }
    for (const name of STRIP_PARAM_NAMES) {
      if (cur.strip[name] !== next.strip[name]) this.strip?.set(name, next.strip[name])
    }
    this.controls = { voice: { ...next.voice }, strip: { ...next.strip } }
  }

  private teardown(): void {
    this.voice?.dispose()
    this.strip?.dispose()
    this.voice = null
    this.strip = null
    this.playing = false
  }

  dispose(): void {
    this.teardown()
    this.loop = null
  }
}
