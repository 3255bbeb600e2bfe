#!/usr/bin/env node
// Precompressed copies of the web build's hashed assets (name.br and name.gz beside
// each file), which the server's static plugin sends to browsers that accept them
// (plugins/external/spa.ts, preCompressed), so no CPU is spent compressing per request.
// Runs after `vite build` (apps/web package.json); vite empties dist first, so no copy is stale.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const assets = path.resolve(import.meta.dirname, '..', 'apps', 'web', 'dist', 'assets')
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|html)$/
/** Below this, the headers outweigh the saving. */
const MIN_BYTES = 1024

let files = 0
let before = 0
let after = 0
for (const name of readdirSync(assets)) {
  const file = path.join(assets, name)
  if (!COMPRESSIBLE.test(name) || !statSync(file).isFile()) continue
  const content = readFileSync(file)
  if (content.length < MIN_BYTES) continue
  const br = brotliCompressSync(content, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
  })
  writeFileSync(`${file}.br`, br)
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }))
  files += 1
  before += content.length
  after += br.length
}
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`
console.log(`compress-dist: ${files} assets, ${kib(before)} -> ${kib(after)} brotli (gzip beside it)`)
