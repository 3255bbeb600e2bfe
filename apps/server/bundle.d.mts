/** Bundles `entryPoints` (relative to apps/server) into `outdir`, emptied first (bundle.mjs). */
export function bundleServer(options: { entryPoints: string[]; outdir: string }): Promise<void>
