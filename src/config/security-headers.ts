// The app's Content-Security-Policy: its pages run only the scripts of its own build, so a script
// injected into a page (stored XSS, an HTML injection) does not run, and nothing loads from third
// parties. Every server of ours (the local server's static files, vite dev and preview) sends it,
// next to the isolation headers.
//
// What the app legitimately needs, and why each source is here:
//   script-src 'self' blob:  the built bundles, workers and audio worklets (same-origin files);
//                            blob: because standardized-audio-context hands each worklet module to
//                            addModule() as a blob: URL it makes from our own file. Only script
//                            already running on this origin can make a blob: URL, so an injected
//                            inline script or handler is still blocked (no 'unsafe-inline')
//   'wasm-unsafe-eval'       compiling WebAssembly, and only that (no eval of JavaScript): the
//                            instrument engine's Ogg Vorbis decoder (stb-vorbis inside
//                            spessasynth_core) is WebAssembly; without it Chromium refuses to
//                            compile it and the GM bank's samples cannot be decoded
//   style-src 'unsafe-inline' sonner injects its stylesheet as a <style> element and React sets
//                            style attributes; styles cannot run script, so this is not a hole
//   img-src data: blob:      QR codes (data:), cover and banner previews of picked files (blob:)
//   media-src blob:          recordings and generated audio played from blob: URLs
//   worker-src blob:         kept for worker bundles a browser may load from blob: URLs
//   connect-src 'self' blob: data:  the local Supabase API and Realtime's websocket on the same
//                            origin; blob:/data: because the engine fetch()es audio the app made
//                            itself (recordings, renders, picked files) to decode it
// A hosted deployment whose API lives elsewhere (VITE_SUPABASE_URL) adds that origin and its wss:
// counterpart to connect-src through `apiOrigin`.

const DIRECTIVES = (scriptSources: string, connectSources: string): string[] => [
  "default-src 'self'",
  `script-src 'self' blob: 'wasm-unsafe-eval'${scriptSources}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "font-src 'self' data:",
  `connect-src 'self' blob: data:${connectSources}`,
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
]

export interface PolicyOptions {
  /** A hosted Supabase API origin (https://<ref>.supabase.co); its wss: twin is allowed too. */
  apiOrigin?: string
  /** Vite's dev server only: the nonce it puts on the inline scripts it injects (React refresh). */
  scriptNonce?: string
}

export function contentSecurityPolicy({ apiOrigin, scriptNonce }: PolicyOptions = {}): string {
  const connect = apiOrigin ? ` ${apiOrigin} ${apiOrigin.replace(/^http/, 'ws')}` : ''
  return DIRECTIVES(scriptNonce ? ` 'nonce-${scriptNonce}'` : '', connect).join('; ')
}

/** The headers every page of the app goes out with. */
export function appSecurityHeaders(options: PolicyOptions = {}): Readonly<Record<string, string>> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(options),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  }
}
