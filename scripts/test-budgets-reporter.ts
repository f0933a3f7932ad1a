// A Vitest reporter that writes each test's duration beside its budget (its own timeout, else the
// config's testTimeout) to a JSON file, for scripts/slowest-tests.ts: the JSON reporter records
// durations but not budgets. Configured in vitest.config.ts and vitest.browser.config.ts.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { Reporter, TestModule } from 'vitest/node'

export interface TestBudget {
  file: string
  name: string
  ms: number
  budgetMs: number
}

export default class TestBudgetsReporter implements Reporter {
  constructor(private readonly options: { outputFile: string }) {}

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const out: TestBudget[] = []
    for (const module of modules)
      for (const test of module.children.allTests()) {
        const ms = test.diagnostic()?.duration
        if (ms === undefined) continue
        // The runner's own task carries the timeout the test ran under (`it(name, fn, ms)` or the config's).
        const own = (test as unknown as { task?: { timeout?: number } }).task?.timeout
        const budgetMs = own && own > 0 ? own : test.project.config.testTimeout
        out.push({ file: module.relativeModuleId, name: test.fullName, ms, budgetMs })
      }
    mkdirSync(dirname(this.options.outputFile), { recursive: true })
    writeFileSync(this.options.outputFile, JSON.stringify(out))
  }
}
