// Node benches import engine modules that import assets with Vite's `?url` suffix (the channel
// strip's WebAssembly): under Node, such an import gives the file's URL, as Vite's gives the page.
// Used as `tsx --import ./bench/url-imports.mjs …` (package.json "bench").
import { register } from 'node:module'

register('./url-import-hooks.mjs', import.meta.url)
