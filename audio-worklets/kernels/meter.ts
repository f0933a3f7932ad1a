/**
 * Peak and RMS per channel over a fixed window (the strip uses ~1/30 s, i.e. display rate).
 * `add` returns true when a window has just completed; the finished values stay readable until
 * the next window completes.
 */
export class LevelMeter {
  private readonly windowFrames: number
  private count = 0
  private peakL = 0
  private peakR = 0
  private sumL = 0
  private sumR = 0
  /** Last completed window. */
  readonly levels = { peakL: 0, peakR: 0, rmsL: 0, rmsR: 0 }

  constructor(windowFrames: number) {
    this.windowFrames = Math.max(1, Math.round(windowFrames))
  }

  add(l: Float32Array, r: Float32Array, frames: number): boolean {
    let pl = this.peakL
    let pr = this.peakR
    let sl = this.sumL
    let sr = this.sumR
    let count = this.count
    let done = false
    let i = 0
    while (i < frames) {
      // Run to the end of the block or of the window, whichever comes first, with state in locals.
      const take = Math.min(frames - i, this.windowFrames - count)
      const end = i + take
      for (; i < end; i++) {
        const a = l[i]!
        const b = r[i]!
        const aa = a < 0 ? -a : a
        const bb = b < 0 ? -b : b
        if (aa > pl) pl = aa
        if (bb > pr) pr = bb
        sl += a * a
        sr += b * b
      }
      count += take
      if (count === this.windowFrames) {
        const lv = this.levels
        lv.peakL = pl
        lv.peakR = pr
        lv.rmsL = Math.sqrt(sl / this.windowFrames)
        lv.rmsR = Math.sqrt(sr / this.windowFrames)
        pl = pr = sl = sr = 0
        count = 0
        done = true
      }
    }
    this.peakL = pl
    this.peakR = pr
    this.sumL = sl
    this.sumR = sr
    this.count = count
    return done
  }
}
