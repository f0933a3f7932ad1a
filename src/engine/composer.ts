/**
 * The composer's main-thread side: its worker (Comlink) and the parts of its vocabulary the UI
 * shows (moods, genres, labels, titles). Features reach the composer only through here, so
 * workers/ stays an implementation detail of the engine. Each name is taken from the module that
 * defines it (not the composer's index) so a page that only needs a label does not bundle the
 * composer itself.
 */
import { wrap, type Remote } from 'comlink'
import type { ComposerWorkerApi } from '../../workers/composer.worker.ts'
import type { ComposeRequest, Score } from '../../workers/composer/score.ts'

export {
  DEFAULT_GENRE,
  DEFAULT_MOOD,
  GENRE_LABELS,
  GENRES,
  MOOD_LABELS,
  MOODS,
  type Genre,
  type Mood,
} from '../../workers/composer/styles.ts'
export { heardLine, scoreSummary, scoreTitle } from '../../workers/composer/describe.ts'
export { INSTRUMENT_PARTS, INSTRUMENTS, type Instrument } from '../../workers/composer/vocabulary.ts'
export type { ComposeRequest, Score } from '../../workers/composer/score.ts'

let worker: Remote<ComposerWorkerApi> | null = null

function composerWorker(): Remote<ComposerWorkerApi> {
  if (!worker)
    worker = wrap<ComposerWorkerApi>(
      new Worker(new URL('../../workers/composer.worker.ts', import.meta.url), { type: 'module', name: 'composer' }),
    )
  return worker
}

/** Composes in the composer worker (one per page, started on first use). */
export function composeInWorker(request: ComposeRequest): Promise<Score> {
  return composerWorker().compose(request)
}
