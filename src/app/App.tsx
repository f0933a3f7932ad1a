import { useState } from 'react'
import { RouterProvider } from 'react-router-dom'
import { Notifier } from './Notifier.tsx'
import { createAppRouter } from './router.tsx'
import { ThemeApplier } from '../features/theme/index.ts'
import { SlotsProvider } from '../ui/slots.tsx'
import { FEATURE_SLOTS } from './feature-slots.tsx'

export function App() {
  const [router] = useState(createAppRouter)
  return (
    <SlotsProvider slots={FEATURE_SLOTS}>
      <ThemeApplier />
      <RouterProvider router={router} />
      <Notifier />
    </SlotsProvider>
  )
}
