export { ListenCreditNote } from './ListenCreditNote.tsx'
