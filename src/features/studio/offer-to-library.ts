import { notify } from '../../lib/notify.ts'
import { errorMessage } from '../../lib/error-message.ts'
import { useLibraryPrefs } from '../../domain/collection/library-prefs.ts'
import { saveAudioToLibrary } from '../../domain/collection/save-to-library.ts'

type Entry = Parameters<typeof saveAudioToLibrary>[0]

/**
 * After an export or a take: the notice offers "Save to Library"; with the Library's
 * "save my exports and takes" setting on, it is saved at once and the notice says so.
 */
export function offerToLibrary(entry: Entry, title: string, done: string): void {
  const save = () =>
    saveAudioToLibrary(entry).then(
      (song) => notify.success('Saved to your Library', { description: `"${song.title}"` }),
      (err: unknown) => notify.error('Not saved to the Library', { description: errorMessage(err) }),
    )
  if (useLibraryPrefs.getState().autoSaveCreations) {
    void saveAudioToLibrary(entry).then(
      (song) => notify.success(title, { description: `${done}, and saved to your Library as "${song.title}".` }),
      (err: unknown) => notify.success(title, { description: `${done} (not saved to the Library: ${errorMessage(err)})` }),
    )
    return
  }
  notify.success(title, { description: `${done}.`, action: { label: 'Save to Library', onClick: () => void save() } })
}
