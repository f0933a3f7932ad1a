export { StationMiniControls } from './StationMiniControls.tsx'
