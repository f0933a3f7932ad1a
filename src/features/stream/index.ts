export { StationMiniControls } from './StationMiniControls.tsx'
export { startStationReporter } from './station-reporter.ts'
