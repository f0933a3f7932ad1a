import { useCallback } from 'react'
import { AuthModal } from './AuthModal.tsx'
import { useAuthModalStore } from '../../domain/session/auth-modal-store.ts'

/** Mounted once by the app layout, so the dialog opens even while the sidebar is collapsed. */
export function AuthModalHost() {
  const openTab = useAuthModalStore((s) => s.openTab)
  const close = useAuthModalStore((s) => s.close)
  const onClose = useCallback(() => close(), [close])
  return openTab ? <AuthModal key={openTab} initialTab={openTab} onClose={onClose} /> : null
}
