/**
 * The tempo model: a linear score over a candidate's metrical features (metrical-features.ts,
 * FEATURE_NAMES order); the candidate that scores highest is the beat. The weights are fitted by
 * `TEMPO_FIT_RHYTHM=0.5 npx tsx scripts/tempo-model/fit.ts` (pairwise logistic regression: the
 * true tempo against each of its relatives) on composer pieces whose true tempo is in the score,
 * rendered two ways, and on a backbeat and a drumless arpeggio every 4 BPM from 58 to 178; pieces
 * used to check it (workers/remix-tempo.test.ts held-out sets, the catalogue, the same signals at
 * other tempi in dsp/tempo-detect.test.ts, real music) are never fitted on.
 */
export const TEMPO_MODEL_WEIGHTS: readonly number[] = [
  5.21, 4.043, 1.652, 2.183, 2.194, 7.12, -0.682, 6.581, 1.639, 3.532, 3.307, -1.901, 0.352, 2.338, 1.766, 7.393, -2.845, -3.825, -1.51,
  5.838, 6.943, 3.408, 0.829,
]

export function scoreTempoCandidate(features: readonly number[]): number {
  let s = 0
  for (let i = 0; i < TEMPO_MODEL_WEIGHTS.length; i++) s += TEMPO_MODEL_WEIGHTS[i]! * (features[i] ?? 0)
  return s
}
