/** Where a sixteenth step falls in seconds, with swing delaying every off-beat sixteenth. */
export function stepTime(step: number, stepSeconds: number, swing: number): number {
  const whole = Math.floor(step)
  const offbeat = whole % 2 === 1 ? swing * 0.5 : 0
  return (step + offbeat) * stepSeconds
}

export const roundTime = (t: number): number => Math.round(t * 1e6) / 1e6
