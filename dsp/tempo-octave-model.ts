/**
 * The tempo model: a linear score over a candidate's metrical features (metrical-features.ts,
 * FEATURE_NAMES order); the candidate that scores highest is the beat. The weights are fitted by
 * `npx tsx scripts/tempo-model/fit.ts` (pairwise logistic regression: the true tempo against each
 * of its relatives) on composer pieces whose true tempo is in the score, rendered two ways; pieces
 * used to check it (workers/remix-tempo.test.ts held-out sets, the catalogue) are never fitted on.
 */
export const TEMPO_MODEL_WEIGHTS: readonly number[] = [
  5.253, 4.185, 2.555, 1.613, 2.138, 9.389, 2.222, 7.419, 3.42, 3.21, 3.236, -2.411, -0.695, 2.224, 2.367, 8.614, -3.547, -3.658, -2.683,
  6.837, 7.267, 3.957, -1.193,
]

export function scoreTempoCandidate(features: readonly number[]): number {
  let s = 0
  for (let i = 0; i < TEMPO_MODEL_WEIGHTS.length; i++) s += TEMPO_MODEL_WEIGHTS[i]! * (features[i] ?? 0)
  return s
}
