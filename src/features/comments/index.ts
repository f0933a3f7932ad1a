export { CommentThread } from './CommentThread.tsx'
export { CommentMarkers } from './CommentMarkers.tsx'
