// The server's esbuild bundle, shared by `build.mjs` (the production server) and the bench's
// sync worker, which is measured as the compiled code production runs rather than under tsx.
// esbuild bundles the server's own code and the workspace packages it uses (@portal/shared; the
// simulator as a separate chunk that only demo mode loads, through its dynamic import); npm
// packages stay external and load from node_modules, so `outdir` must lie inside the repository.
// The SQL migrations are copied next to the bundle, where db/migrate.ts looks for them.
import { build } from 'esbuild'
import { cpSync, rmSync } from 'node:fs'
import path from 'node:path'

const root = import.meta.dirname

/** Bundles `entryPoints` (relative to apps/server) into `outdir`, emptied first. */
export async function bundleServer({ entryPoints, outdir }) {
  rmSync(outdir, { recursive: true, force: true })
  await build({
    absWorkingDir: root,
    entryPoints,
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
}
