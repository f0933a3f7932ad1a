// Scoring of the real-music tempo study, shared by the Node measurement and the browser study.
export interface RenderedExcerpt {
  id: string
  piece: string
  bpm: number
  split: 'tuning' | 'held-out'
  timeSignature: string
  drums: boolean
}

export interface SplitScore {
  split: string
  n: number
  right: number
  /** Within ±1 BPM of double or half the tempo (a metrical-level error). */
  octave: number
  misses: string[]
}

export function scoreSplit(excerpts: readonly RenderedExcerpt[], found: ReadonlyMap<string, number>, split: string): SplitScore {
  const s: SplitScore = { split, n: 0, right: 0, octave: 0, misses: [] }
  for (const ex of excerpts) {
    if (ex.split !== split) continue
    const bpm = found.get(ex.id)
    if (bpm === undefined) continue
    s.n++
    if (Math.abs(bpm - ex.bpm) <= 1) s.right++
    else {
      if ([2, 0.5].some((r) => Math.abs(bpm - ex.bpm * r) <= 1)) s.octave++
      s.misses.push(`${ex.id} (${ex.timeSignature}${ex.drums ? ', drums' : ''}) ${ex.bpm}→${bpm.toFixed(1)}`)
    }
  }
  return s
}

export function scoreTempos(excerpts: readonly RenderedExcerpt[], found: ReadonlyMap<string, number>): string[] {
  return (['tuning', 'held-out'] as const).map((split) => {
    const s = scoreSplit(excerpts, found, split)
    const share = ((100 * s.right) / s.n).toFixed(0)
    return `${split}: ${s.right}/${s.n} within ±1 BPM (${share} %), ${s.octave} double/half; misses: ${s.misses.join('; ') || 'none'}`
  })
}
