import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { ISOLATION_HEADERS } from './src/config/isolation-headers.ts'
import { localBackendDevPlugin } from './supabase/local/vite-dev-backend.ts'

export default defineConfig({
  plugins: [react(), tailwindcss(), localBackendDevPlugin()],
  server: { headers: { ...ISOLATION_HEADERS }, port: 5173 },
  preview: { headers: { ...ISOLATION_HEADERS } },
  worker: { format: 'es' },
  // Only the app's own page is scanned for dependencies (bench/ and scripts/ have harness pages of their own).
  optimizeDeps: { entries: ['index.html'] },
  build: { target: 'es2022', sourcemap: false, reportCompressedSize: true, manifest: true },
})
