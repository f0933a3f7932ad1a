export { recordProfileVisit, startPlayRecorder } from './view-recorder.ts'
export { sharePath } from './share-links.ts'
