export { isSong, selectAllSongs, useLibraryStore } from './library-store.ts'
export { saveAudioToLibrary } from './save-to-library.ts'
