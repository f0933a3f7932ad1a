export { PlayerBar } from './PlayerBar.tsx'
