export { PublishButton } from './PublishButton.tsx'
export { PublishedSection } from './PublishedSection.tsx'
export { catalogueSong, DEFAULT_COVER } from './catalogue-song.ts'
