import { lazy } from 'react'

// Both generators load on demand: the composer and Tone.js never enter the page that shows them
// until a generation starts.
export const AiGenerator = lazy(() => import('./AiGenerator.tsx').then((m) => ({ default: m.AiGenerator })))
export const LandingGenerator = lazy(() => import('./LandingGenerator.tsx'))
