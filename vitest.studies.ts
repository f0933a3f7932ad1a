// Comparison studies (ours against other libraries, `*-side-by-side.test.ts`) are measurements,
// not the gate: `npm test` leaves them out; `npm run test:studies` runs only them, in Node and in
// Chromium (CUBE_STUDIES=1 keeps them in, and the script's `side-by-side` filter keeps only them).
// Their figures are in docs/benchmarks.md.
export const STUDY_FILES = '**/*-side-by-side.test.ts'

/** A config's exclude list, with the studies left out of the gate. */
export function withoutStudies(exclude: string[]): string[] {
  return process.env.CUBE_STUDIES === '1' ? exclude : [...exclude, STUDY_FILES]
}
