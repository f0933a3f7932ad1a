import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { ISOLATION_HEADERS } from './src/app/isolation-headers.ts'

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: { headers: { ...ISOLATION_HEADERS }, port: 5173 },
  preview: { headers: { ...ISOLATION_HEADERS } },
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: false, reportCompressedSize: true, manifest: true },
})
