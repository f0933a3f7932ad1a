/**
 * The Remix Studio's work: picking a source (decode, analyse, prepare), the live preview and its
 * interplay with the player bar, settings → preview, drafts, the render for the burn, the Library
 * entry. Writes the store; no React.
 */
import { getAudioContext } from '../../engine/audio-context.ts'
import { RemixInputError, RemixSession, type PreparedRemix } from '../../engine/remix/remix-session.ts'
import { RemixPreview } from '../../engine/remix/remix-preview.ts'
import { renderRemixAudio, type RemixControls } from '../../engine/remix/remix-render.ts'
import { outputBpm, stripControls, voiceControls, type RemixSettings } from '../../engine/remix/remix-settings.ts'
import { deleteRemixDraft, listRemixDrafts, saveRemixDraft, type RemixDraftSource } from '../../engine/remix/remix-drafts.ts'
import { computePeaks, encodeWav } from '../../engine/workers.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import type { Song } from '../../lib/catalogue/song.ts'
import { saveAudioToLibrary } from '../../domain/collection/save-to-library.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { MIN_LOOP_SECONDS, scaleRegion } from './loop-region.ts'
import { initialRemixState, useRemixStore } from './remix-store.ts'

let session: RemixSession | null = null
let prepared: PreparedRemix | null = null
let loadSeq = 0
let retuneTimer: ReturnType<typeof setTimeout> | null = null

const store = useRemixStore

const preview = new RemixPreview({
  onPosition: (position, playing) => store.setState({ position, playing }),
  onEnded: () => store.setState({ playing: false }),
})

function controlsFor(settings: RemixSettings): RemixControls | null {
  const info = store.getState().info
  if (!info) return null
  return { voice: voiceControls(settings, info), strip: stripControls(settings) }
}

export interface PickedSource extends RemixDraftSource {
  image?: string
}

/** Decodes, analyses and prepares a source; bad input ends in status 'error' with a clear message. */
export async function pickSource(
  source: PickedSource,
  restore: { settings?: RemixSettings; loop?: { start: number; end: number } | null; draftId?: string | null } = {},
): Promise<void> {
  const seq = ++loadSeq
  preview.dispose()
  prepared = null
  session?.dispose()
  session = new RemixSession(getAudioContext().sampleRate)
  const current = session
  const { drafts } = store.getState()
  store.setState({
    ...initialRemixState(),
    drafts,
    source: { ref: source.ref, title: source.title, audioUrl: source.audioUrl, file: source.file },
    image: source.image ?? null,
    settings: restore.settings ?? store.getState().settings,
    loop: restore.loop ?? null,
    draftId: restore.draftId ?? null,
    status: 'loading',
    stage: 'Decoding and analysing (tempo, key, pitch)…',
    preparedBpm: null,
  })
  try {
    const analysis = await current.load(source.file ? { file: source.file } : { audioUrl: source.audioUrl ?? '' })
    if (seq !== loadSeq) return
    store.setState({
      info: { bpm: analysis.bpm, key: analysis.key.name, tonic: analysis.key.tonic, mode: analysis.key.mode, voiced: analysis.voiced },
    })
    await prepareAndLoad(seq, 0, false)
  } catch (err) {
    if (seq !== loadSeq) return
    const message = err instanceof RemixInputError ? err.message : `Could not open this track: ${errorMessage(err)}`
    store.setState({ status: 'error', error: message, progress: 0 })
    notify.error('Remix source', { description: message, id: 'remix-source' })
  }
}

async function prepareAndLoad(seq: number, at: number, play: boolean): Promise<void> {
  const s = store.getState()
  if (!session || !s.info) return
  const bpm = outputBpm(s.settings, s.info.bpm)
  store.setState({
    status: 'preparing',
    progress: 0,
    stage: s.settings.beatMatch.on ? `Beat Match: stretching to ${bpm} BPM…` : 'Preparing samples…',
  })
  const next = await session.prepare(bpm, (f) => seq === loadSeq && store.setState({ progress: f }))
  if (seq !== loadSeq) return
  // The loop is in seconds of the timeline shown so far; Beat Match stretches it by old / new tempo.
  const ratio = prepared ? prepared.bpm / next.bpm : 1
  prepared = next
  const controls = controlsFor(store.getState().settings)!
  const [peaks] = await computePeaks(next.source, 600)
  if (seq !== loadSeq) return
  const max = peaks ? Float32Array.from(peaks.max, (v, i) => Math.max(Math.abs(v), Math.abs(peaks.min[i]!))) : null
  const duration = next.source[0]!.length / next.sampleRate
  const loop = scaleRegion(store.getState().loop, ratio)
  const region = loop && loop.end <= duration + 1e-6 ? { start: loop.start, end: Math.min(loop.end, duration) } : null
  if (region) preview.setLoop(region.start, region.end)
  else preview.setLoop(null)
  await preview.load(next, controls, { at: Math.min(at, duration), play })
  if (seq !== loadSeq) return
  store.setState({
    status: 'ready',
    progress: 1,
    stage: '',
    duration,
    position: Math.min(at, duration),
    peaks: max,
    loop: region,
    preparedBpm: next.bpm,
  })
}

/** Applies new settings: live on the preview, or a new prepare when the output tempo changes. */
export function updateSettings(change: (s: RemixSettings) => RemixSettings): void {
  const settings = change(store.getState().settings)
  store.setState({ settings })
  const { info, status } = store.getState()
  if (!info || !prepared) return
  const bpm = outputBpm(settings, info.bpm)
  if (Math.abs(bpm - prepared.bpm) > 1e-9) {
    // Re-stretching takes a moment: wait until the user stops moving the tempo control.
    if (retuneTimer) clearTimeout(retuneTimer)
    retuneTimer = setTimeout(() => {
      retuneTimer = null
      const s = store.getState()
      const ratio = prepared ? prepared.bpm / bpm : 1
      void prepareAndLoad(loadSeq, s.position * ratio, preview.playing).catch((err: unknown) => {
        store.setState({ status: 'error', error: `Beat Match failed: ${errorMessage(err)}` })
      })
    }, 350)
    return
  }
  if (status === 'ready') preview.setControls(controlsFor(settings)!)
}

export async function togglePreview(): Promise<void> {
  if (store.getState().status !== 'ready') return
  if (preview.playing) {
    preview.pause()
    store.setState({ playing: false })
    return
  }
  // One thing plays at a time: the song player pauses while the preview plays.
  if (usePlayerStore.getState().isPlaying) usePlayerStore.getState().pause()
  store.setState({ playing: true })
  await preview.play()
}

export function seekPreview(seconds: number): void {
  const { duration } = store.getState()
  const at = Math.min(Math.max(0, seconds), duration)
  preview.seek(at)
  store.setState({ position: at })
}

export function setLoopRegion(region: { start: number; end: number } | null): void {
  const { duration } = store.getState()
  const r =
    region && region.end - region.start >= MIN_LOOP_SECONDS
      ? { start: Math.max(0, region.start), end: Math.min(duration, region.end) }
      : null
  preview.setLoop(r ? r.start : null, r?.end)
  store.setState({ loop: r })
}

/** The song player and the preview never play at once; leaving the page stops the preview. */
export function startRemixService(): () => void {
  const unsubscribe = usePlayerStore.subscribe((s, prev) => {
    if (s.isPlaying && !prev.isPlaying && preview.playing) {
      preview.pause()
      store.setState({ playing: false })
    }
  })
  void refreshDrafts()
  const { source, settings, loop, draftId, status } = store.getState()
  // Back on the page: the audio graph was released on leaving, the choices were kept.
  if (source && status !== 'error') void pickSource(source, { settings, loop, draftId })
  return () => {
    unsubscribe()
    loadSeq++
    preview.dispose()
    session?.dispose()
    session = null
    prepared = null
    store.setState({ playing: false })
  }
}

export function isPrepared(): boolean {
  return prepared !== null && store.getState().status === 'ready'
}

/** The remix as a 16-bit WAV: the preview's graph rendered offline with the current settings. */
export async function renderRemixWav(options: { signal: AbortSignal; onProgress: (f: number) => void }): Promise<Blob> {
  const p = prepared
  const controls = controlsFor(store.getState().settings)
  if (!p || !controls) throw new Error('Pick a source first')
  const channels = await renderRemixAudio(p, controls, options)
  if (options.signal.aborted) throw new DOMException('Render cancelled', 'AbortError')
  return encodeWav(channels, p.sampleRate, 'pcm16')
}

/** Saves a rendered remix to the Library as 'Title (Remix)', remembering the server's remix; returns the new track. */
export async function saveRemixToLibrary(wav: Blob, remixId: string): Promise<Song> {
  const { source, image } = store.getState()
  if (!source) throw new Error('No source')
  // 16-bit stereo WAV: 4 bytes a frame after the 44-byte header.
  const seconds = prepared ? (wav.size - 44) / 4 / prepared.sampleRate : 0
  return saveAudioToLibrary({
    idPrefix: 'remix',
    title: `${source.title} (Remix)`,
    artist: 'Remixed by you',
    blob: wav,
    seconds,
    origin: 'remix',
    image: image ?? undefined,
    remixId,
  })
}

export async function refreshDrafts(): Promise<void> {
  try {
    store.setState({ drafts: await listRemixDrafts() })
  } catch (err) {
    console.warn('[remix] drafts unavailable', err)
  }
}

export async function saveDraft(): Promise<void> {
  const { source, settings, loop, draftId } = store.getState()
  if (!source) return
  const id = draftId ?? crypto.randomUUID()
  try {
    await saveRemixDraft({ id, name: `${source.title} (Remix draft)`, source, settings, loop, savedAt: Date.now() })
    store.setState({ draftId: id })
    notify.success('Draft saved', { description: 'Saved on this device. Nothing was spent.' })
    await refreshDrafts()
  } catch (err) {
    notify.error('Could not save the draft', { description: errorMessage(err) })
  }
}

export async function openDraft(id: string): Promise<void> {
  const draft = store.getState().drafts.find((d) => d.id === id)
  if (!draft) return
  await pickSource({ ...draft.source }, { settings: draft.settings, loop: draft.loop, draftId: draft.id })
}

export async function removeDraft(id: string): Promise<void> {
  await deleteRemixDraft(id)
  if (store.getState().draftId === id) store.setState({ draftId: null })
  await refreshDrafts()
}
