import type { BasicMIDI } from 'spessasynth_core'

/** The duration-weighted median of the tempo map, in quarter notes per minute. */
export function medianTempo(midi: BasicMIDI): number {
  // Stored last first; at equal ticks the file's own tempo follows the parser's default, so it wins.
  const changes = [...midi.tempoChanges].reverse()
  const end = midi.lastVoiceEventTick
  const spans: [number, number][] = []
  for (let i = 0; i < changes.length; i++) {
    const from = changes[i]!.ticks,
      to = Math.min(end, changes[i + 1]?.ticks ?? end)
    if (to > from) spans.push([changes[i]!.tempo, (to - from) / changes[i]!.tempo])
  }
  spans.sort((a, b) => a[0] - b[0])
  const total = spans.reduce((a, s) => a + s[1], 0)
  let acc = 0
  for (const [tempo, seconds] of spans) if ((acc += seconds) >= total / 2) return tempo
  return changes[0]!.tempo
}
