export { CommentThread } from './CommentThread.tsx'
