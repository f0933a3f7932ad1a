export { PlayerBar } from './PlayerBar.tsx'
export { Waveform } from './Waveform.tsx'
