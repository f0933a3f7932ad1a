export { MiniPlayer } from './MiniPlayer.tsx'
