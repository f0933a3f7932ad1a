// The slowest tests of the last `npm test`: reads the JSON reports the three runners leave in
// reports/ (vitest.config.ts, vitest.browser.config.ts, playwright.config.ts) and prints the
// slowest N as a Markdown table for docs/benchmarks.md.
// Usage: npx tsx scripts/slowest-tests.ts [N=20]
import { existsSync, readFileSync } from 'node:fs'

interface Timed {
  seconds: number
  tier: string
  name: string
}

interface VitestReport {
  testResults: { name: string; assertionResults: { fullName: string; duration?: number | null }[] }[]
}
interface PlaywrightSuite {
  specs?: { file: string; line: number; title: string; tests: { results: { duration: number; retry: number }[] }[] }[]
  suites?: PlaywrightSuite[]
}

const read = <T>(path: string): T | undefined => (existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : undefined)
const relative = (path: string) => path.replace(`${process.cwd()}/`, '')

function vitestTimes(path: string, tier: string): Timed[] {
  const report = read<VitestReport>(path)
  return (report?.testResults ?? []).flatMap((file) =>
    file.assertionResults.map((t) => ({ seconds: (t.duration ?? 0) / 1000, tier, name: `${relative(file.name)} › ${t.fullName}` })),
  )
}

function playwrightTimes(path: string): Timed[] {
  const out: Timed[] = []
  const walk = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        for (const result of test.results) {
          const retry = result.retry ? ` (retry ${result.retry})` : ''
          out.push({ seconds: result.duration / 1000, tier: 'e2e', name: `${spec.file}:${spec.line} › ${spec.title}${retry}` })
        }
    for (const child of suite.suites ?? []) walk(child)
  }
  for (const suite of read<{ suites: PlaywrightSuite[] }>(path)?.suites ?? []) walk(suite)
  return out
}

const count = Number(process.argv[2] ?? 20)
const all = [
  ...vitestTimes('reports/vitest-node.json', 'node'),
  ...vitestTimes('reports/vitest-browser.json', 'browser'),
  ...playwrightTimes('reports/e2e.json'),
].sort((a, b) => b.seconds - a.seconds)
if (all.length === 0) {
  console.error('No reports in reports/: run npm test (or one of its tiers) first.')
  process.exit(1)
}
const cut = (text: string) => (text.length > 110 ? `${text.slice(0, 107)}…` : text).replace(/\|/g, '\\|')
console.log('| s | tier | test |\n| ---: | --- | --- |')
for (const t of all.slice(0, count)) console.log(`| ${t.seconds.toFixed(1)} | ${t.tier} | ${cut(t.name)} |`)
