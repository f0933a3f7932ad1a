import { useSyncExternalStore } from 'react'
import { NARROW_BREAKPOINT_PX } from '../config/navigation.ts'

const NARROW_QUERY = `(max-width: ${NARROW_BREAKPOINT_PX - 0.02}px)`

function subscribeNarrow(cb: () => void) {
  const mq = window.matchMedia(NARROW_QUERY)
  mq.addEventListener('change', cb)
  return () => mq.removeEventListener('change', cb)
}

/** True below the layout's narrow breakpoint (the sidebar becomes a drawer there). */
export function useIsNarrow(): boolean {
  return useSyncExternalStore(
    subscribeNarrow,
    () => window.matchMedia(NARROW_QUERY).matches,
    () => false,
  )
}
