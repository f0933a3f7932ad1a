/**
 * Feedback paths (filter state, delay lines, reverb) decay exponentially towards zero and would
 * otherwise end in subnormal numbers, which are slow on x86 and never reach exact silence. States
 * below this magnitude (−400 dBFS) are flushed to zero.
 */
export const DENORMAL_FLOOR = 1e-20

export function flush(x: number): number {
  // One compare on |x|, almost never true, so the branch predicts well; the two-sided test
  // mispredicted on every sign change of an audio signal.
  return Math.abs(x) < DENORMAL_FLOOR ? 0 : x
}
