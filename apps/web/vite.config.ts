import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// `@portal/shared` is a TypeScript source package linked by npm workspaces: Vite follows the
// symlink and compiles it like our own source, so it needs no build step or alias of its own.
export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  preview: {
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Route modules are split by the dynamic imports in src/app/router.tsx.
    // No source maps in the production build: what the server serves would give the source
    // away. `vite build --sourcemap` makes them for a developer (the server still never serves
    // them: `vite preview` does), and `vite` (npm run dev -w @portal/web) inlines them.
    sourcemap: false,
    // dist/.vite/manifest.json: chunk graph for scripts/check-bundle-budget.mjs.
    manifest: true,
  },
})
