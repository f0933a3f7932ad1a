// The slowest tests of the last `npm test`, each with its share of its budget (its timeout): reads
// what the three runners leave in reports/ (the budgets reporter of vitest.config.ts and
// vitest.browser.config.ts, scripts/test-budgets-reporter.ts; Playwright's JSON report) and prints
// the slowest N as a Markdown table for docs/benchmarks.md. A test that used more than half its
// budget is listed again at the end and the script exits 1: under load it would be the next to time out.
// Usage: npx tsx scripts/slowest-tests.ts [N=20]
import { existsSync, readFileSync } from 'node:fs'
import type { TestBudget } from './test-budgets-reporter.ts'

export interface Timed {
  seconds: number
  budgetSeconds: number
  tier: string
  name: string
}

interface PlaywrightSuite {
  specs?: {
    file: string
    line: number
    title: string
    tests: { timeout: number; results: { duration: number; retry: number }[] }[]
  }[]
  suites?: PlaywrightSuite[]
}

/** The share of its budget above which a test counts as near its timeout. */
export const NEAR_BUDGET = 0.5

const read = <T>(path: string): T | undefined => (existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : undefined)

function vitestTimes(path: string, tier: string): Timed[] {
  return (read<TestBudget[]>(path) ?? []).map((t) => ({
    seconds: t.ms / 1000,
    budgetSeconds: t.budgetMs / 1000,
    tier,
    name: `${t.file} › ${t.name}`,
  }))
}

function playwrightTimes(path: string): Timed[] {
  const out: Timed[] = []
  const walk = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        for (const result of test.results) {
          const retry = result.retry ? ` (retry ${result.retry})` : ''
          out.push({
            seconds: result.duration / 1000,
            budgetSeconds: test.timeout / 1000,
            tier: 'e2e',
            name: `${spec.file}:${spec.line} › ${spec.title}${retry}`,
          })
        }
    for (const child of suite.suites ?? []) walk(child)
  }
  for (const suite of read<{ suites: PlaywrightSuite[] }>(path)?.suites ?? []) walk(suite)
  return out
}

export const share = (t: Timed) => (t.budgetSeconds > 0 ? t.seconds / t.budgetSeconds : 0)

/** The Markdown table of the given tests, slowest first. */
export function table(tests: Timed[]): string {
  const cut = (text: string) => (text.length > 110 ? `${text.slice(0, 107)}…` : text).replace(/\|/g, '\\|')
  const rows = tests.map(
    (t) => `| ${t.seconds.toFixed(1)} | ${t.budgetSeconds.toFixed(0)} | ${Math.round(share(t) * 100)} % | ${t.tier} | ${cut(t.name)} |`,
  )
  return ['| s | budget s | share | tier | test |', '| ---: | ---: | ---: | --- | --- |', ...rows].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const count = Number(process.argv[2] ?? 20)
  const all = [
    ...vitestTimes('reports/budgets-node.json', 'node'),
    ...vitestTimes('reports/budgets-browser.json', 'browser'),
    ...playwrightTimes('reports/e2e.json'),
  ].sort((a, b) => b.seconds - a.seconds)
  if (all.length === 0) {
    console.error('No reports in reports/: run npm test (or one of its tiers) first.')
    process.exit(1)
  }
  console.log(table(all.slice(0, count)))
  const near = all.filter((t) => share(t) > NEAR_BUDGET).sort((a, b) => share(b) - share(a))
  if (near.length > 0) {
    console.error(`\n${near.length} test(s) used more than ${NEAR_BUDGET * 100} % of their budget:\n${table(near)}`)
    process.exit(1)
  }
}
