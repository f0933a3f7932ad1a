export { StationMiniControls } from './StationMiniControls.tsx'
export { startStationReporter } from './station-reporter.ts'
export { startStationListeners } from './station-listeners.ts'
export { startStationClock } from './station-clock.ts'
