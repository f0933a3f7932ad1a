/**
 * The studio's views ask the live session's store who else is where: on a track, on a clip, on
 * a note, on a control. The selectors return the store's own peer objects (new only when that
 * peer's presence changed), so memoised lanes re-render only for a change that concerns them.
 */
import { useMemo } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { useLiveSessionStore } from '../../../domain/studio/live-session-store.ts'
import type { ControlRef, Peer } from '../../../domain/studio/presence.ts'

/** The peers on a track (the one they have selected). */
export function usePeersOnTrack(trackId: string): Peer[] {
  return useLiveSessionStore(useShallow((s) => s.peers.filter((p) => p.selectedTrackId === trackId)))
}

/** Per clip of a track, the first peer who has it selected in their timeline. */
export function usePeerClips(trackId: string): ReadonlyMap<string, Peer> {
  const peers = useLiveSessionStore(useShallow((s) => s.peers.filter((p) => p.clip?.trackId === trackId)))
  return useMemo(() => {
    const out = new Map<string, Peer>()
    for (const p of peers) if (p.clip && !out.has(p.clip.clipId)) out.set(p.clip.clipId, p)
    return out
  }, [peers])
}

/** Per note of a track, the first peer who has it selected in their piano roll. */
export function usePeerNotes(trackId: string): ReadonlyMap<string, Peer> {
  const peers = useLiveSessionStore(useShallow((s) => s.peers.filter((p) => p.selectedTrackId === trackId && p.notes.length > 0)))
  return useMemo(() => {
    const out = new Map<string, Peer>()
    for (const p of peers) for (const id of p.notes) if (!out.has(id)) out.set(id, p)
    return out
  }, [peers])
}

/** The peer moving this control now, if any. */
export function usePeerTouching(control: ControlRef | undefined): Peer | null {
  return useLiveSessionStore(
    (s) => (control && s.peers.find((p) => p.touching?.control === control.control && p.touching.trackId === control.trackId)) || null,
  )
}
