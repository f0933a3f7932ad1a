/**
 * Keeps every instrument track's audio rendered: when notes, instrument or tempo change, the track
 * names a new render (instrumentAudioId) and this service makes it, one render at a time, newest
 * first, skipping renders no track needs any more. Until it lands the track plays its previous
 * render's absence (silence), never a stale one.
 *
 *   startInstrumentRenders()          follows the mixer store (the studio starts it)
 *   ensureInstrumentAudio(track, bpm) renders one track's audio now if it is missing (project open)
 *   instrumentsRendered()             resolves when every current instrument track has its audio
 *                                     (saving waits for it, so a project is stored with its renders)
 */
import { dropMixerAudio, hasMixerAudio, putMixerAudio } from '../../engine/mixer-audio.ts'
import { renderInstrumentAudio } from '../../engine/instruments/instrument-render.ts'
import type { MixerTrack } from '../../engine/mixer-model.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { notify } from '../../lib/notify.ts'
import { useMixerStore } from './mixer-store.ts'

/** Renders kept beyond what the tracks use, so undo and redo of recent edits need no new render. */
const KEPT_RENDERS = 6

const inFlight = new Map<string, Promise<void>>()
const recent: string[] = []
let chain: Promise<unknown> = Promise.resolve()

function remember(id: string): void {
  recent.push(id)
  while (recent.length > KEPT_RENDERS) {
    const old = recent.shift()!
    if (!useMixerStore.getState().tracks.some((t) => t.audioId === old)) dropMixerAudio(old)
  }
}

/** `bpm`: the tempo of the mix the track belongs to (a project being opened has its own). */
export function ensureInstrumentAudio(
  track: Pick<MixerTrack, 'audioId' | 'instrument'>,
  bpm: number = useMixerStore.getState().tempo,
): Promise<void> {
  const { audioId, instrument } = track
  if (!instrument || hasMixerAudio(audioId)) return Promise.resolve()
  const running = inFlight.get(audioId)
  if (running) return running
  // One at a time: renders share the main thread with the page (they yield, but two would halve both).
  const job = chain.then(async () => {
    if (hasMixerAudio(audioId)) return
    const audio = await renderInstrumentAudio(instrument, bpm)
    // The id names notes and tempo together: a render for another tempo is not this track's audio.
    if (audio.id !== audioId) return
    putMixerAudio(audio)
    remember(audioId)
  })
  const done = job.finally(() => inFlight.delete(audioId))
  chain = done.catch(() => {})
  inFlight.set(audioId, done)
  return done
}

export async function instrumentsRendered(): Promise<void> {
  for (;;) {
    const tracks = useMixerStore.getState().tracks.filter((t) => t.instrument && !hasMixerAudio(t.audioId))
    if (tracks.length === 0) return
    await Promise.all(tracks.map((t) => ensureInstrumentAudio(t)))
  }
}

export function startInstrumentRenders(): () => void {
  const failed = new Set<string>()
  const renderMissing = (tracks: readonly MixerTrack[]) => {
    // Newest edits first: the selected track is the one being played with.
    const selected = useMixerStore.getState().selectedId
    const todo = tracks.filter((t) => t.instrument && !hasMixerAudio(t.audioId) && !failed.has(t.audioId))
    todo.sort((a, b) => Number(b.id === selected) - Number(a.id === selected))
    for (const t of todo)
      ensureInstrumentAudio(t).catch((err: unknown) => {
        failed.add(t.audioId)
        // One notice however many edits fail in a row (each edit names a new render).
        notify.error(`"${t.name}" could not be played`, { id: 'instrument-render', description: errorMessage(err) })
      })
  }
  renderMissing(useMixerStore.getState().tracks)
  return useMixerStore.subscribe((s, prev) => s.tracks !== prev.tracks && renderMissing(s.tracks))
}
