// One-pole parameter glide: the same arithmetic, in the same order, as kernels/smoothing.ts (the
// JS reference the parity tests compare against), so a glide here follows it sample for sample.

export function onePoleCoefficient(timeConstantSeconds: f64, sampleRate: f64): f64 {
  if (!(timeConstantSeconds > 0)) return 1
  return 1 - Math.exp(-1 / (timeConstantSeconds * sampleRate))
}

export const DEFAULT_SMOOTHING_SECONDS: f64 = 0.01

export class Smoother {
  value: f64
  target: f64
  coefficient: f64
  epsilon: f64

  constructor(initial: f64, sampleRate: f64, timeConstantSeconds: f64 = DEFAULT_SMOOTHING_SECONDS, epsilon: f64 = 1e-6) {
    this.value = initial
    this.target = initial
    this.coefficient = onePoleCoefficient(timeConstantSeconds, sampleRate)
    this.epsilon = epsilon
  }

  setTarget(target: f64): void {
    if (isFinite<f64>(target)) this.target = target
  }

  snap(value: f64): void {
    if (!isFinite<f64>(value)) return
    this.value = value
    this.target = value
  }

  /** True while a glide is in progress; snaps to the target once close enough (as the JS getter). */
  moving(): bool {
    if (this.value == this.target) return false
    const d = this.target - this.value
    if (d < this.epsilon && d > -this.epsilon) {
      this.value = this.target
      return false
    }
    return true
  }

  @inline next(): f64 {
    this.value += this.coefficient * (this.target - this.value)
    return this.value
  }

  advance(n: i32): f64 {
    this.value = this.target + (this.value - this.target) * Math.pow(1 - this.coefficient, <f64>n)
    return this.value
  }
}

/** A stage whose level has glided to 0 is skipped; its state is cleared once on the way out. */
export class IdleGate {
  idle: bool = false

  /** True while the level is non-zero or still gliding; false (and `reset` due) once idle. */
  check(level: Smoother): i32 {
    if (level.target != 0 || level.moving()) {
      this.idle = false
      return 1
    }
    if (!this.idle) {
      this.idle = true
      return -1
    }
    return 0
  }
}
