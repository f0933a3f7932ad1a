import type { Backend } from '../../src/domain/session/backend-context.ts'

// A fake of the injected backend for component tests: each test passes only the calls its screen
// makes; every call is counted (module.name, in order) so a test can prove how many requests a
// flow costs, and a call the test did not provide fails in words naming it.

// The names are checked against the real modules (a renamed call fails to compile); the signatures
// are left to each test, whose answers are often partial rows or a promise that never settles.
type Calls<M> = { [K in keyof M]?: M[K] extends (...args: never[]) => unknown ? (...args: never[]) => unknown : M[K] }

export type BackendFakes = { [M in keyof Backend]?: Calls<Backend[M]> }

export interface FakeBackend {
  backend: Backend
  /** Every call made, as 'module.name', in order. */
  calls: string[]
  /** How many calls were made to `name` ('wallet.fetchLedger'), or in all. */
  count: (name?: string) => number
  /** Forgets the calls so far (after the screen's first load, say). */
  reset: () => void
}

// Calls that take the client as their first argument get this one: faking those calls is enough,
// and anything that reaches through it to the network fails in words.
const fakeClient = () =>
  new Proxy(
    {},
    {
      get(_, name) {
        throw new Error(`The fake backend's supabase client was used directly (.${String(name)}): fake the call that uses it.`)
      },
    },
  )

export function fakeBackend(fakes: BackendFakes = {}): FakeBackend {
  const calls: string[] = []
  const modules = new Map<string, object>()
  const moduleOf = (module: string) => {
    let proxy = modules.get(module)
    if (!proxy) {
      const given = (fakes as Record<string, Record<string, unknown> | undefined>)[module] ?? {}
      // One wrapper per call, kept: a hook may list the call in an effect's dependencies.
      const wrappers = new Map<string, (...args: unknown[]) => unknown>()
      const wrap = (name: string) => {
        const fn = given[name] ?? (module === 'client' && name === 'supabase' ? fakeClient : undefined)
        return (...args: unknown[]) => {
          calls.push(`${module}.${name}`)
          if (typeof fn !== 'function') throw new Error(`The fake backend has no ${module}.${name}: pass it to fakeBackend() in this test.`)
          return (fn as (...a: unknown[]) => unknown)(...args)
        }
      }
      proxy = new Proxy(
        {},
        {
          get(_, name) {
            if (typeof name !== 'string') return undefined
            // A value that is no call (an object of calls, a constant) is handed over as given.
            if (given[name] !== undefined && typeof given[name] !== 'function') return given[name]
            if (!wrappers.has(name)) wrappers.set(name, wrap(name))
            return wrappers.get(name)
          },
        },
      )
      modules.set(module, proxy)
    }
    return proxy
  }
  const backend = new Proxy({} as Backend, { get: (_, module) => (typeof module === 'string' ? moduleOf(module) : undefined) })
  return {
    backend,
    calls,
    count: (name) => (name ? calls.filter((c) => c === name).length : calls.length),
    reset: () => void calls.splice(0),
  }
}
