/**
 * strip.wasm compiled in Node (unit tests, Node benches): the very file the app ships. Node-only
 * (reads the file), so the worklet and worker builds never import it.
 */
import { readFileSync } from 'node:fs'

let compiled: WebAssembly.Module | null = null

export function stripModule(): WebAssembly.Module {
  compiled ??= new WebAssembly.Module(readFileSync(new URL('./wasm/strip.wasm', import.meta.url)))
  return compiled
}
