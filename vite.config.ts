import { defineConfig, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { ISOLATION_HEADERS } from './src/config/isolation-headers.ts'
import { appSecurityHeaders } from './src/config/security-headers.ts'
import { localBackendDevPlugin } from './supabase/local/vite-dev-backend.ts'
import { soundfontBankPlugin } from './scripts/soundfont-bank-plugin.ts'
import { serviceWorkerPlugin } from './scripts/service-worker-plugin.ts'

// The app's CSP on dev and preview too. In dev only, Vite stamps this nonce on the
// inline scripts it injects (React refresh); a fresh one per start, never in a build.
const devScriptNonce = crypto.randomUUID().replaceAll('-', '')
const devCspNonce: Plugin = { name: 'dev-csp-nonce', apply: 'serve', config: () => ({ html: { cspNonce: devScriptNonce } }) }

export default defineConfig({
  plugins: [react(), tailwindcss(), localBackendDevPlugin(), devCspNonce, soundfontBankPlugin(), serviceWorkerPlugin()],
  server: { headers: { ...ISOLATION_HEADERS, ...appSecurityHeaders({ scriptNonce: devScriptNonce }) }, port: 5173 },
  preview: { headers: { ...ISOLATION_HEADERS, ...appSecurityHeaders() } },
  worker: { format: 'es' },
  // Only the app's own page is scanned for dependencies (bench/ and scripts/ have harness pages of their own).
  optimizeDeps: { entries: ['index.html'] },
  build: { target: 'es2022', sourcemap: false, reportCompressedSize: true, manifest: true },
})
