export { startLiveNotices } from './live-notices.ts'
