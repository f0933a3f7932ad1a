import * as Comlink from 'comlink'
import { compose } from './composer/compose.ts'

// Composition runs off the main thread so the UI keeps drawing while a piece is written.
const api = { compose }
export type ComposerWorkerApi = typeof api
Comlink.expose(api)
