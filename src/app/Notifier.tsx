import { useEffect } from 'react'
import { Toaster, toast } from 'sonner'
import { subscribeNotices, type Notice } from '../lib/notify.ts'

function show({ kind, title, persistent, ...rest }: Notice): void {
  const options = persistent ? { ...rest, duration: Infinity, closeButton: true } : rest
  if (kind === 'success') toast.success(title, options)
  else if (kind === 'error') toast.error(title, options)
  else toast(title, options)
}

/** The one place notices become toasts (src/lib/notify.ts explains why). */
export function Notifier() {
  useEffect(() => subscribeNotices(show), [])
  return (
    <Toaster
      theme="dark"
      position="top-right"
      richColors
      toastOptions={{ style: { background: 'var(--theme-panel)', border: '1px solid var(--theme-border)', color: 'var(--theme-text)' } }}
    />
  )
}
