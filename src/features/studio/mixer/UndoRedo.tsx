import { useEffect } from 'react'
import { redoLabel, undoLabel } from '../../../domain/studio/edit-history.ts'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { Icon } from '../../../ui/Icon.tsx'

/** Text fields keep their own undo (and Ctrl+Z there must not rewind the mix). */
function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true
  return (
    target instanceof HTMLInputElement &&
    !['button', 'checkbox', 'radio', 'range', 'submit', 'reset', 'file', 'color'].includes(target.type)
  )
}

/** Ctrl/Cmd+Z undoes, Shift+Ctrl/Cmd+Z and Ctrl+Y redo, while the mixer is on screen. */
function useUndoShortcuts() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || isTextEntry(e.target)) return
      const key = e.key.toLowerCase()
      const store = useMixerStore.getState()
      if (key === 'z' && !e.shiftKey) store.undo()
      else if ((key === 'z' && e.shiftKey) || (key === 'y' && !e.shiftKey)) store.redo()
      else return
      e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
}

export function UndoRedo() {
  const undoing = useMixerStore((s) => undoLabel(s.history))
  const redoing = useMixerStore((s) => redoLabel(s.history))
  const undo = useMixerStore((s) => s.undo)
  const redo = useMixerStore((s) => s.redo)
  useUndoShortcuts()
  const style =
    'flex items-center gap-1 rounded border border-line px-2 py-1.5 text-sm hover:border-primary disabled:opacity-40 ' +
    'disabled:hover:border-line'
  return (
    <div role="group" aria-label="Edit history" className="flex items-center gap-1">
      <button
        type="button"
        onClick={undo}
        disabled={!undoing}
        aria-label={undoing ? `Undo ${undoing}` : 'Undo'}
        title={undoing ? `Undo ${undoing} (Ctrl+Z)` : 'Nothing to undo'}
        className={style}
        data-testid="mixer-undo"
      >
        <Icon name="undo" size={16} />
        <span className="hidden sm:inline">Undo</span>
      </button>
      <button
        type="button"
        onClick={redo}
        disabled={!redoing}
        aria-label={redoing ? `Redo ${redoing}` : 'Redo'}
        title={redoing ? `Redo ${redoing} (Shift+Ctrl+Z)` : 'Nothing to redo'}
        className={style}
        data-testid="mixer-redo"
      >
        <Icon name="redo" size={16} />
        <span className="hidden sm:inline">Redo</span>
      </button>
    </div>
  )
}
