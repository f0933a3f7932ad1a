/**
 * Undo/redo for the mixer, pure: snapshots of a small serialisable state (the mixer's tracks and
 * master, audio only by its audioId), so undo restores exactly what the store held, by reference.
 *
 *   emptyHistory(limit)                      no steps
 *   record(h, before, step, now)             `before` becomes undoable; redo is cleared. A step
 *                                            with the same coalesce key as the last one, within
 *                                            its window, merges into it (one slider gesture = one step)
 *   undo(h, current) / redo(h, current)      { history, state, label } or null when nothing to do
 *   undoLabel(h) / redoLabel(h)              what the next undo/redo would change
 *
 * Snapshots rather than patches: a mix is a few tracks of a dozen numbers, so a copy of the arrays
 * costs less than a patch format would to maintain, and unchanged tracks are shared anyway.
 */
export interface HistoryStep {
  /** What the step did, for the Undo/Redo buttons: 'Volume change'. */
  label: string
  /** Steps with equal keys merge while each follows the previous within `window` ms. */
  coalesceKey?: string
  /** ms; Infinity = merge for as long as nothing else was recorded in between (a pointer drag). */
  window?: number
}

interface Entry<S> {
  state: S
  label: string
  coalesceKey?: string
  window: number
  lastAt: number
}

export interface EditHistory<S> {
  readonly past: readonly Entry<S>[]
  readonly future: readonly Entry<S>[]
  readonly limit: number
}

/** The brief asks for at least 100 steps; a mix snapshot is small, so keep twice that. */
export const DEFAULT_HISTORY_LIMIT = 200

export function emptyHistory<S>(limit = DEFAULT_HISTORY_LIMIT): EditHistory<S> {
  return { past: [], future: [], limit: Math.max(1, Math.floor(limit)) }
}

/** True when `record` would merge this step into the last one rather than add a step. */
export function willCoalesce<S>(h: EditHistory<S>, step: HistoryStep, now: number): boolean {
  const top = h.past[h.past.length - 1]
  return (
    !!top &&
    step.coalesceKey !== undefined &&
    top.coalesceKey === step.coalesceKey &&
    h.future.length === 0 &&
    now - top.lastAt <= top.window
  )
}

export function record<S>(h: EditHistory<S>, before: S, step: HistoryStep, now: number): EditHistory<S> {
  const top = h.past[h.past.length - 1]
  if (top && willCoalesce(h, step, now)) {
    // The gesture goes on: the step keeps its first `before`, only its clock moves.
    return { ...h, past: [...h.past.slice(0, -1), { ...top, lastAt: now }] }
  }
  const entry: Entry<S> = { state: before, label: step.label, coalesceKey: step.coalesceKey, window: step.window ?? 0, lastAt: now }
  const past = [...h.past, entry]
  return { ...h, past: past.length > h.limit ? past.slice(past.length - h.limit) : past, future: [] }
}

export function undo<S>(h: EditHistory<S>, current: S): { history: EditHistory<S>; state: S; label: string } | null {
  const top = h.past[h.past.length - 1]
  if (!top) return null
  // Coalescing never continues across an undo: the redo entry starts without a key.
  const redoEntry: Entry<S> = { state: current, label: top.label, window: 0, lastAt: 0 }
  return { history: { ...h, past: h.past.slice(0, -1), future: [...h.future, redoEntry] }, state: top.state, label: top.label }
}

export function redo<S>(h: EditHistory<S>, current: S): { history: EditHistory<S>; state: S; label: string } | null {
  const next = h.future[h.future.length - 1]
  if (!next) return null
  const undoEntry: Entry<S> = { state: current, label: next.label, window: 0, lastAt: 0 }
  return { history: { ...h, past: [...h.past, undoEntry], future: h.future.slice(0, -1) }, state: next.state, label: next.label }
}

export const undoLabel = <S>(h: EditHistory<S>): string | null => h.past[h.past.length - 1]?.label ?? null
export const redoLabel = <S>(h: EditHistory<S>): string | null => h.future[h.future.length - 1]?.label ?? null
