export { ListenCreditNote } from './ListenCreditNote.tsx'
export { startListenReporter } from './listen-reporter.ts'
export { capNote } from './listen-tracker.ts'
