export { REMIX_COST } from './remix-burn-machine.ts'
