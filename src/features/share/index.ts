export { sharePath } from './share-links.ts'
