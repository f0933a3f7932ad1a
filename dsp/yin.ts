/**
 * YIN monophonic pitch detection (de Cheveigné & Kawahara 2002): cumulative-mean-normalised
 * difference function, absolute threshold, parabolic interpolation. Returns 0 Hz when the frame
 * is not periodic enough (noise, drums, silence), which Auto Tune leaves alone.
 */
export interface PitchEstimate {
  hz: number
  /** 1 − the normalised difference at the chosen lag: ~1 for a clean tone, low for noise. */
  clarity: number
}

export function createYin(sampleRate: number, windowSize: number, minHz = 70, maxHz = 1200, threshold = 0.12) {
  const maxTau = Math.min(Math.floor(sampleRate / minHz), windowSize)
  const minTau = Math.max(2, Math.floor(sampleRate / maxHz))
  const d = new Float64Array(maxTau + 2)
  /** `frame` holds windowSize + maxTau samples, read from `start` (ring-free: pass a linear copy). */
  function detect(frame: Float32Array): PitchEstimate {
    let energy = 0
    for (let j = 0; j < windowSize; j++) energy += frame[j]! * frame[j]!
    if (energy < 1e-8 * windowSize) return { hz: 0, clarity: 0 }
    d[0] = 1
    let running = 0
    for (let tau = 1; tau <= maxTau + 1; tau++) {
      let s = 0
      for (let j = 0; j < windowSize; j++) {
        const diff = frame[j]! - frame[j + tau]!
        s += diff * diff
      }
      running += s
      d[tau] = running > 0 ? (s * tau) / running : 1
    }
    let tau = -1
    for (let t = minTau; t <= maxTau; t++) {
      if (d[t]! < threshold) {
        while (t + 1 <= maxTau && d[t + 1]! < d[t]!) t++
        tau = t
        break
      }
    }
    if (tau < 0) return { hz: 0, clarity: 0 }
    const a = d[tau - 1]!,
      b = d[tau]!,
      c = d[tau + 1]!
    const denom = a - 2 * b + c
    const shift = denom !== 0 ? (0.5 * (a - c)) / denom : 0
    return { hz: sampleRate / (tau + shift), clarity: 1 - b }
  }
  return { detect, frameLength: windowSize + maxTau + 2 }
}
