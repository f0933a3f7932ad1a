export { AddToPlaylistMenu } from './AddToPlaylistMenu.tsx'
export { selectIsFavourite, usePlaylistStore } from './playlist-store.ts'
export { startPlaylistSync } from './playlist-sync.ts'
