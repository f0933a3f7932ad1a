import { useEffect } from 'react'
import { useMixerStore } from '../../../domain/studio/mixer-store.ts'
import { describeRestoredMix, RESTORED_NOTICE, useDraftNotice } from './draft-notice.ts'

let leaving: ReturnType<typeof setTimeout> | undefined

/** "Restored your unsaved mix" in the studio, with Keep and Discard; shown once per draft. */
export function RestoredMixBanner() {
  const restored = useDraftNotice((s) => s.restored)
  useEffect(() => {
    clearTimeout(leaving)
    // Leaving the studio counts as seen. A tick later, so StrictMode's unmount-and-mount keeps it.
    return () => {
      leaving = setTimeout(() => {
        if (useDraftNotice.getState().restored) useDraftNotice.getState().acknowledge()
      }, 0)
    }
  }, [])
  if (!restored) return null
  return (
    <div role="status" className="panel mt-4 flex flex-wrap items-center gap-3 border-primary p-3 text-sm" data-testid="restored-mix">
      <p className="min-w-0 flex-1">
        <strong className="text-primary">{RESTORED_NOTICE}</strong>: {describeRestoredMix(restored)}
      </p>
      <div className="flex gap-2">
        <button
          type="button"
          className="rounded-md bg-primary px-3 py-1.5 font-semibold text-bg"
          onClick={() => useDraftNotice.getState().acknowledge()}
        >
          Keep
        </button>
        <button
          type="button"
          className="rounded-md border border-line px-3 py-1.5 hover:border-secondary hover:text-secondary"
          onClick={() => {
            useMixerStore.getState().reset()
            useDraftNotice.getState().forget()
          }}
        >
          Discard
        </button>
      </div>
    </div>
  )
}
