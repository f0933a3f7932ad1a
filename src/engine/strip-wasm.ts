/**
 * strip.wasm (the channel strip's DSP, audio-worklets/wasm/strip/), fetched and compiled once per
 * page, when the first strip is loaded: the landing page never asks for it. The compiled
 * WebAssembly.Module is what the channel-strip processor (processorOptions) and the export's
 * workers (a message) instantiate, so all of them run the same bytes.
 */
import stripWasmUrl from '../../audio-worklets/wasm/strip.wasm?url'

let compiled: Promise<WebAssembly.Module> | null = null

export function loadStripModule(): Promise<WebAssembly.Module> {
  if (!compiled) {
    const p = fetch(stripWasmUrl)
      .then((res) => {
        if (!res.ok) throw new Error(`Could not load the audio engine (strip.wasm): the server answered ${res.status}`)
        return res.arrayBuffer()
      })
      .then((bytes) => WebAssembly.compile(bytes))
    compiled = p
    // A failed load must not poison the cache: the next call retries.
    p.catch(() => {
      if (compiled === p) compiled = null
    })
  }
  return compiled
}
