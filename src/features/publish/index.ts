export { PublishButton } from './PublishButton.tsx'
export { PublishedSection } from './PublishedSection.tsx'
