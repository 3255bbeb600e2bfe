#!/usr/bin/env node
// The production server is compiled JavaScript, not tsx: esbuild bundles it into dist/
// (bundle.mjs says how). `npm start` runs this after the web build (`npm run build`).
import path from 'node:path'
import { bundleServer } from './bundle.mjs'

await bundleServer({ entryPoints: ['src/server.ts'], outdir: path.join(import.meta.dirname, 'dist') })
