export { isSong, selectAllSongs, useLibraryStore } from './library-store.ts'
