export { mergeProposal } from './proposal-list.ts'
