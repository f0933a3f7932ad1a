/** Page side of `npm run bench`: exposes the bundled bench modules to bench/run.ts. */
import { benches } from 'virtual:cube-benches'
import type { BenchModule, BenchResult } from '../types.ts'

const registry = benches as Record<string, () => Promise<BenchModule>>

Object.assign(window, {
  cubeBench: {
    names: Object.keys(registry),
    async run(name: string): Promise<BenchResult[]> {
      const load = registry[name]
      if (!load) throw new Error(`no browser bench named ${name}`)
      return (await load()).run()
    },
  },
})
