export { AddToPlaylistMenu } from './AddToPlaylistMenu.tsx'
