/**
 * The score renderer's mixing junctions (score-renderer.ts): many signals summed two at a time, so
 * every render adds them in the same order.
 */
type ToneModule = typeof import('tone')
type ToneContext = import('tone').OfflineContext
/** Records a node in the graph's list of everything it holds, and returns it. */
export type Keep = <T extends object>(node: T) => T
export type Connectable = { connect(destination: import('tone').InputNode): unknown }

/**
 * Sums sources through a binary tree of gains. A browser adds up a node's inputs in an order of its
 * own choosing (Chromium: a hash set of connections) and float addition of three or more terms
 * depends on the order, which made two renders of one score differ in the last bit. Two-term
 * addition is commutative, so with at most two signals per junction every render is bit-identical.
 */
export function sumTree(Tone: ToneModule, context: ToneContext, sources: Connectable[], keep: Keep): import('tone').Gain {
  let level: Connectable[] = sources
  do {
    const next: import('tone').Gain[] = []
    for (let i = 0; i < level.length; i += 2) {
      const g = keep(new Tone.Gain({ context }))
      level[i]!.connect(g)
      level[i + 1]?.connect(g)
      next.push(g)
    }
    level = next
  } while (level.length > 1)
  return level[0] as import('tone').Gain
}
