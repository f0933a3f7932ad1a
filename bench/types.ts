/** One measured figure. `value` in `unit`; `detail` says what was measured (shown after the figure). */
export interface BenchResult {
  name: string
  value: number
  unit: string
  detail?: string
}

/** What every bench/node/*.bench.ts and bench/browser/*.bench.ts exports. */
export type BenchModule = { run(): Promise<BenchResult[]> }
