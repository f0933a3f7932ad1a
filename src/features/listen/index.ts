export { ListenCreditNote } from './ListenCreditNote.tsx'
export { StillListeningPrompt } from './StillListeningPrompt.tsx'
