// Module hooks for bench/url-imports.mjs: `import x from './a.wasm?url'` (or `?worker&url`) resolves
// to a module whose default export is the file's URL.
const MARK = 'cube-url-import'
const asUrl = (specifier) => {
  const q = specifier.indexOf('?')
  return q >= 0 &&
    specifier
      .slice(q + 1)
      .split('&')
      .includes('url')
    ? specifier.slice(0, q)
    : null
}

export async function resolve(specifier, context, next) {
  const file = asUrl(specifier)
  if (file === null) return next(specifier, context)
  const { url } = await next(file, context)
  return { url: `${url}?${MARK}`, format: 'module', shortCircuit: true }
}

export async function load(url, context, next) {
  if (!url.endsWith(`?${MARK}`)) return next(url, context)
  const file = url.slice(0, -MARK.length - 1)
  return { format: 'module', source: `export default ${JSON.stringify(file)}`, shortCircuit: true }
}
