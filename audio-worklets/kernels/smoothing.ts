/**
 * One-pole parameter smoothing shared by every kernel. A slider jump becomes an exponential glide
 * (time constant ~10 ms by default), so no control change ever produces a step in the output.
 */

/** Per-sample coefficient of a one-pole glide with the given time constant. */
export function onePoleCoefficient(timeConstantSeconds: number, sampleRate: number): number {
  if (!(timeConstantSeconds > 0)) return 1
  return 1 - Math.exp(-1 / (timeConstantSeconds * sampleRate))
}

/** Default glide for user controls: fast enough to feel immediate, slow enough to be click-free. */
export const DEFAULT_SMOOTHING_SECONDS = 0.01

export class Smoother {
  value: number
  target: number
  private readonly coefficient: number
  /** Once |target - value| falls under this, the glide snaps so the hot path can go constant. */
  private readonly epsilon: number

  constructor(initial: number, sampleRate: number, timeConstantSeconds = DEFAULT_SMOOTHING_SECONDS, epsilon = 1e-6) {
    this.value = initial
    this.target = initial
    this.coefficient = onePoleCoefficient(timeConstantSeconds, sampleRate)
    this.epsilon = epsilon
  }

  setTarget(target: number): void {
    // NaN/Inf from a caller must never reach the audio path.
    if (Number.isFinite(target)) this.target = target
  }

  /** Jump without gliding (initial values before the first block). */
  snap(value: number): void {
    if (!Number.isFinite(value)) return
    this.value = value
    this.target = value
  }

  /** True while a glide is in progress; snaps to the target once close enough. */
  get moving(): boolean {
    if (this.value === this.target) return false
    const d = this.target - this.value
    if (d < this.epsilon && d > -this.epsilon) {
      this.value = this.target
      return false
    }
    return true
  }

  next(): number {
    this.value += this.coefficient * (this.target - this.value)
    return this.value
  }

  /** Advances n samples at once (used where a kernel updates at control rate). */
  advance(n: number): number {
    // (1-c)^n computed without pow per call would be nicer, but this runs at most once per sub-block.
    this.value = this.target + (this.value - this.target) * Math.pow(1 - this.coefficient, n)
    return this.value
  }
}
