import { useEffect, useRef, useState } from 'react'
import { notify } from '../../../lib/notify.ts'
import type { IAudioBufferSourceNode, IAudioContext } from 'standardized-audio-context'
import { unlockAudio } from '../../../engine/audio-context.ts'
import { getMasterBus } from '../../../engine/master-bus.ts'
import { putMixerAudio, hasMixerAudio, getMixerAudio, audioBufferFor, type MixerAudio } from '../../../engine/mixer-audio.ts'
import { SOUND_LIBRARY, type LibrarySound } from '../../../lib/catalogue/sound-library.ts'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { loopRegionSeconds } from '../../../engine/arrangement/clip-edits.ts'
import { normaliseClip } from '../../../engine/arrangement/clip.ts'
import { errorMessage } from '../../../lib/error-message.ts'
import { Icon } from '../../../ui/Icon.tsx'

const decoding = new Map<string, Promise<MixerAudio>>()

/** Fetches (same origin, shipped in public/) and decodes a library sound once. */
function loadSound(ctx: IAudioContext, sound: LibrarySound): Promise<MixerAudio> {
  const id = `lib-${sound.id}`
  const have = getMixerAudio(id)
  if (have) return Promise.resolve(have)
  let p = decoding.get(id)
  if (!p) {
    p = (async () => {
      const res = await fetch(sound.url)
      if (!res.ok) throw new Error(`${sound.name} could not be loaded (HTTP ${res.status}).`)
      const decoded = await ctx.decodeAudioData(await res.arrayBuffer())
      const channels: Float32Array[] = []
      for (let c = 0; c < Math.min(2, decoded.numberOfChannels); c++) channels.push(decoded.getChannelData(c).slice())
      const audio = { id, sampleRate: decoded.sampleRate, channels }
      if (!hasMixerAudio(id)) putMixerAudio(audio)
      return audio
    })()
    decoding.set(id, p)
    p.catch(() => decoding.delete(id))
  }
  return p
}

export function SoundLibraryPanel() {
  const addTrack = useMixerStore((s) => s.addTrack)
  const [previewing, setPreviewing] = useState<string | null>(null)
  const source = useRef<IAudioBufferSourceNode<IAudioContext> | null>(null)

  const stopPreview = () => {
    try {
      source.current?.stop()
    } catch {
      // already ended
    }
    source.current = null
    setPreviewing(null)
  }
  useEffect(() => stopPreview, [])

  const preview = async (sound: LibrarySound) => {
    if (previewing === sound.id) return stopPreview()
    stopPreview()
    try {
      const ctx = await unlockAudio()
      const audio = await loadSound(ctx, sound)
      const src = ctx.createBufferSource()
      src.buffer = audioBufferFor(ctx, audio)
      src.connect(getMasterBus().input)
      src.onended = () => {
        if (source.current === src) stopPreview()
      }
      src.start()
      source.current = src
      setPreviewing(sound.id)
    } catch (err) {
      notify.error('Preview failed', { description: errorMessage(err) })
    }
  }

  const add = async (sound: LibrarySound) => {
    try {
      const ctx = await unlockAudio()
      const audio = await loadSound(ctx, sound)
      const duration = (audio.channels[0]?.length ?? 0) / audio.sampleRate
      const store = useMixerStore.getState()
      // The project takes its tempo from the first loop added to it (the user can change it after).
      if (sound.bpm && store.tracks.length === 0) store.setTempo(sound.bpm)
      // A loop is a clip of its whole bars: a decoded MP3 carries padding that would break the loop.
      const clips = sound.bpm
        ? [
            normaliseClip(
              { id: `clip-${crypto.randomUUID()}`, start: 0, sourceStart: 0, sourceEnd: loopRegionSeconds(duration, sound.bpm) },
              duration,
            ),
          ]
        : undefined
      addTrack({ name: sound.name, type: 'effect', audioId: audio.id, duration, clips })
      notify.success('Sound added', { description: sound.name })
    } catch (err) {
      notify.error('Could not add sound', { description: errorMessage(err) })
    }
  }

  return (
    <div className="space-y-2">
      <ul className="space-y-1.5" aria-label="Sound library">
        {SOUND_LIBRARY.map((s) => (
          <li key={s.id} className="flex items-center gap-2 rounded border border-line p-2 text-sm">
            <button
              type="button"
              onClick={() => void preview(s)}
              aria-label={previewing === s.id ? `Stop preview of ${s.name}` : `Preview ${s.name}`}
              className="rounded-full border border-primary p-1 text-primary"
            >
              <Icon name={previewing === s.id ? 'pause' : 'play'} size={14} />
            </button>
            <div className="min-w-0 flex-1">
              <div className="truncate">{s.name}</div>
              <div className="text-xs capitalize text-muted">{s.category}</div>
            </div>
            <button
              type="button"
              onClick={() => void add(s)}
              aria-label={`Add ${s.name}`}
              className="flex items-center gap-1 rounded border border-line px-2 py-1 text-xs hover:border-primary"
            >
              <Icon name="plus" size={12} /> Add
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        onClick={() => notify('Coming Soon', { description: 'AI sound generation is on its way.' })}
        className="flex w-full items-center justify-center gap-2 rounded border border-secondary px-3 py-2 text-sm text-secondary"
      >
        <Icon name="sparkles" size={16} /> Generate Sound with AI
      </button>
    </div>
  )
}
