// Cross-origin isolation lets the audio engine use SharedArrayBuffer. Every server of ours
// (vite dev, vite preview and the embedded backend in supabase/local) sends these.
export const ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
}
