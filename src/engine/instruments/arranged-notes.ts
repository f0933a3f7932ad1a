/**
 * An instrument track's notes as its clips play them on the timeline (moved, trimmed, looped), in
 * timeline beats: what a `.mid` export must contain so that it sounds as the mix did. A note is
 * kept when it starts inside a clip's window and inside the part of the render the clip plays; it
 * ends at the clip's end, and, in a loop, at the loop's end.
 */
import { clipEnd, isLooped, regionLength, trackClips } from '../arrangement/clip.ts'
import type { MixerTrack } from '../mixer-model.ts'
import type { Note } from './note-track.ts'

export type ArrangedNote = Omit<Note, 'id'>

export function arrangedNotes(track: Pick<MixerTrack, 'id' | 'offset' | 'duration' | 'clips' | 'instrument'>, bpm: number): ArrangedNote[] {
  const notes = track.instrument?.notes ?? []
  const spb = 60 / bpm
  const out: ArrangedNote[] = []
  for (const c of trackClips(track)) {
    const region = regionLength(c)
    const looped = isLooped(c)
    // Timeline second where the region's first second would sound in the clip's first pass.
    const base = c.start - c.phase - c.sourceStart
    const passes = looped ? Math.ceil((c.phase + c.length) / region) : 1
    for (const n of notes) {
      const s = n.start * spb
      const e = (n.start + n.length) * spb
      if (s < c.sourceStart || s >= c.sourceEnd) continue
      for (let k = 0; k < passes; k++) {
        const at = base + s + k * region
        if (at < c.start - 1e-9 || at >= clipEnd(c) - 1e-9) continue
        let end = Math.min(base + e + k * region, clipEnd(c))
        if (looped) end = Math.min(end, base + c.sourceEnd + k * region)
        out.push({ key: n.key, velocity: n.velocity, start: at / spb, length: Math.max(0, end - at) / spb })
      }
    }
  }
  return out.sort((a, b) => a.start - b.start || a.key - b.key)
}
