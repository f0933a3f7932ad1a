/**
 * Global player shortcuts (outside text fields): Space play/pause, ←/→ seek ∓5 s, ↑/↓ volume ±5,
 * N next, P previous. Pure mapping so it is unit-tested in Node.
 */
export type ShortcutAction =
  | { kind: 'toggle' }
  | { kind: 'seekBy'; seconds: number }
  | { kind: 'volumeBy'; amount: number }
  | { kind: 'next' }
  | { kind: 'previous' }

export const SEEK_STEP_S = 5
export const VOLUME_STEP = 5

export interface KeyLike {
  key: string
  ctrlKey?: boolean
  metaKey?: boolean
  altKey?: boolean
  target?: unknown
}

interface TargetLike {
  tagName?: string
  isContentEditable?: boolean
  getAttribute?: (name: string) => string | null
}

/** Text fields and controls that use these keys themselves keep them. */
function ownsKeys(target: unknown, key: string): boolean {
  const t = target as TargetLike | null | undefined
  if (!t || typeof t !== 'object') return false
  if (t.isContentEditable) return true
  const tag = (t.tagName ?? '').toUpperCase()
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return true
  const role = t.getAttribute?.('role') ?? ''
  if (role === 'slider' || role === 'textbox' || role === 'combobox' || role === 'menuitem' || role === 'spinbutton') return true
  // Space activates a focused button or link; let it.
  if (key === ' ' && (tag === 'BUTTON' || tag === 'A' || tag === 'SUMMARY' || role === 'button')) return true
  return false
}

export function shortcutFor(e: KeyLike): ShortcutAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null
  if (ownsKeys(e.target, e.key)) return null
  switch (e.key) {
    case ' ':
    case 'Spacebar':
      return { kind: 'toggle' }
    case 'ArrowLeft':
      return { kind: 'seekBy', seconds: -SEEK_STEP_S }
    case 'ArrowRight':
      return { kind: 'seekBy', seconds: SEEK_STEP_S }
    case 'ArrowUp':
      return { kind: 'volumeBy', amount: VOLUME_STEP }
    case 'ArrowDown':
      return { kind: 'volumeBy', amount: -VOLUME_STEP }
    case 'n':
    case 'N':
      return { kind: 'next' }
    case 'p':
    case 'P':
      return { kind: 'previous' }
    default:
      return null
  }
}
