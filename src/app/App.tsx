import { useState } from 'react'
import { RouterProvider } from 'react-router-dom'
import { Toaster } from 'sonner'
import { createAppRouter } from './router.tsx'
import { ThemeApplier } from '../features/theme/ThemeApplier.tsx'

export function App() {
  const [router] = useState(createAppRouter)
  return (
    <>
      <ThemeApplier />
      <RouterProvider router={router} />
      <Toaster
        theme="dark"
        position="top-right"
        richColors
        toastOptions={{ style: { background: 'var(--theme-panel)', border: '1px solid var(--theme-border)', color: 'var(--theme-text)' } }}
      />
    </>
  )
}
