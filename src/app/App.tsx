import { useState } from 'react'
import { RouterProvider } from 'react-router-dom'
import { Notifier } from './Notifier.tsx'
import { createAppRouter } from './router.tsx'
import { ThemeApplier } from '../features/theme/index.ts'

export function App() {
  const [router] = useState(createAppRouter)
  return (
    <>
      <ThemeApplier />
      <RouterProvider router={router} />
      <Notifier />
    </>
  )
}
