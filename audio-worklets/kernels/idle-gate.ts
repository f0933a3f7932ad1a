import type { Smoother } from './smoothing.ts'

/**
 * Lets a kernel whose wet/mix level has glided to 0 be skipped entirely (an effect at 0 costs
 * nothing), clearing its state once on the way out so re-enabling starts from silence rather
 * than a stale tail.
 */
export class IdleGate {
  private idle = false

  /** True while the level is non-zero or still gliding; on the first idle call, resets the owner. */
  check(level: Smoother, owner: { reset(): void }): boolean {
    if (level.target !== 0 || level.moving) {
      this.idle = false
      return true
    }
    if (!this.idle) {
      owner.reset()
      this.idle = true
    }
    return false
  }
}
