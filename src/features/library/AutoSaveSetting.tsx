import { useId } from 'react'
import { useLibraryPrefs } from '../../domain/collection/library-prefs.ts'
import { Switch } from '../../ui/Switch.tsx'

/** The Library's one setting: keep studio exports and microphone takes here without asking. */
export function AutoSaveSetting() {
  const on = useLibraryPrefs((s) => s.autoSaveCreations)
  const id = useId()
  return (
    <div className="mt-3 flex items-center gap-3 text-sm">
      <Switch id={id} checked={on} onChange={(v) => useLibraryPrefs.getState().setAutoSaveCreations(v)} />
      <label htmlFor={id} className="text-muted">
        Save my studio exports and microphone takes here automatically
        <span className="sr-only">{on ? '' : ' (off: each one offers “Save to Library” instead)'}</span>
      </label>
    </div>
  )
}
