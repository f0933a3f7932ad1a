/**
 * What happened to saved studio projects, for listeners outside the project store (the account
 * sync in src/features/studio/projects/studio-project-sync.ts). Emitted only after the local IndexedDB write
 * succeeded, so a listener's failure can never lose a local save.
 */
export type ProjectEvent =
  | { kind: 'saved'; id: string; name: string; trackCount: number; durationSeconds: number; createdAt: number; updatedAt: number }
  | { kind: 'renamed'; id: string; name: string }
  | { kind: 'deleted'; id: string }

type Listener = (event: ProjectEvent) => void
const listeners = new Set<Listener>()

export function onProjectEvent(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function emitProjectEvent(event: ProjectEvent): void {
  for (const listener of listeners) {
    try {
      listener(event)
    } catch (error) {
      console.error('project event listener failed', error)
    }
  }
}
