#!/usr/bin/env node
// The production server is compiled JavaScript, not tsx. esbuild bundles the server's
// own code and the workspace packages it uses (@portal/shared; the simulator as a separate chunk
// that only demo mode loads, through its dynamic import) into dist/; npm packages stay external
// and load from node_modules. The SQL migrations are copied next to the bundle, where
// db/migrate.ts looks for them. `npm start` runs this after the web build (`npm run build`).
import { build } from 'esbuild'
import { cpSync, rmSync } from 'node:fs'
import path from 'node:path'

const root = import.meta.dirname
const outdir = path.join(root, 'dist')

rmSync(outdir, { recursive: true, force: true })
await build({
  absWorkingDir: root,
  entryPoints: ['src/server.ts'],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'npm-packages-external',
      setup(b) {
        // Bare imports except @portal/* (workspace packages ship TypeScript sources).
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@portal/') ? undefined : { path: args.path, external: true },
        )
      },
    },
  ],
})
cpSync(path.join(root, 'src/db/migrations'), path.join(outdir, 'migrations'), { recursive: true })
