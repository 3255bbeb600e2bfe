#!/usr/bin/env node
// Front-end budget, checked on the production build in apps/web/dist through Vite's
// build manifest (build.manifest in apps/web/vite.config.ts):
// - the JavaScript a first visit to /login or /dashboard loads (the entry, the route's lazy
//   chunks and everything they import statically) is at most 170 KiB gzip;
// - that first visit grows by at most 5 KiB gzip over the build before the charts (the
//   chart code loads only on the screens that show charts; PRE_CHARTS_KIB below);
// - no route adds more than 350 KiB gzip on top of what is loaded before it (the entry and, for
//   screens inside the signed-in layout, the layout), so heavy parts such as the rich-text
//   editor must stay behind dynamic imports.
// Sizes are gzip at the default level (what a server or CDN compresses with), JavaScript only.
// Exits 1 when a budget is exceeded. BUNDLE_BUDGET_INITIAL_KIB, BUNDLE_BUDGET_GROWTH_KIB and
// BUNDLE_BUDGET_ROUTE_KIB override the limits (to see the check fail, or while tightening it).
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

const root = path.resolve(import.meta.dirname, '..')
const dist = path.join(root, 'apps', 'web', 'dist')
const manifestFile = path.join(dist, '.vite', 'manifest.json')

const limit = (name, fallback) => {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number of KiB`)
  return value
}
const INITIAL_KIB = limit('BUNDLE_BUDGET_INITIAL_KIB', 170)
const ROUTE_KIB = limit('BUNDLE_BUDGET_ROUTE_KIB', 350)
// The charts were held to +5. The first visit to /dashboard has since taken in the staff bulk
// selection (checkboxes, the selection bar; its actions and date fields stay a lazy chunk) and
// the Statements and Webhooks navigation: +6 leaves the charts' rule intact with that added.
const GROWTH_KIB = limit('BUNDLE_BUDGET_GROWTH_KIB', 6)
/** The pages whose first visit is budgeted; each maps to a route module below. */
const INITIAL_PAGES = { '/login': 'login', '/dashboard': 'dashboard' }
/**
 * Baseline: the first visit to each page in the build before the charts came in
 * (commit db691de = 7575b80^, 24 Nov 2026), built from its own package-lock and summed as this
 * script does, on 26 Nov 2026 (docs/performance.md, "Front-end budget and Lighthouse").
 */
const PRE_CHARTS_KIB = { '/login': 119.14, '/dashboard': 147.74 }

/** The route modules of src/app/router.tsx: every screen is a dynamic import from src/app/routes. */
const ROUTE_DIR = 'src/app/routes/'
/** The signed-in layout every screen except these renders inside (router.tsx `appRoot`). */
const LAYOUT = 'app-root'
const OUTSIDE_LAYOUT = new Set(['login', 'not-found'])

if (!existsSync(manifestFile)) {
  console.error(
    `No ${path.relative(root, manifestFile)}: build the web app first (npm run build), with build.manifest on in apps/web/vite.config.ts.`,
  )
  process.exit(1)
}
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'))

const gzipCache = new Map()
function gzipKib(file) {
  if (!gzipCache.has(file)) gzipCache.set(file, gzipSync(readFileSync(path.join(dist, file))).length / 1024)
  return gzipCache.get(file)
}

/** The chunk and every chunk it imports statically, transitively (what the browser must load). */
function closure(key, into = new Set()) {
  const chunk = manifest[key]
  if (!chunk) throw new Error(`${key} is not in the build manifest`)
  if (into.has(key)) return into
  into.add(key)
  for (const imported of chunk.imports ?? []) closure(imported, into)
  return into
}

const kib = (keys) => [...keys].reduce((sum, key) => sum + gzipKib(manifest[key].file), 0)
const minus = (a, b) => new Set([...a].filter((k) => !b.has(k)))
const union = (...sets) => new Set(sets.flatMap((s) => [...s]))

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry)
if (!entryKey) throw new Error('no entry chunk in the build manifest')
const entry = closure(entryKey)

const routes = Object.keys(manifest)
  .filter((key) => key.startsWith(ROUTE_DIR) && manifest[key].isDynamicEntry)
  .map((key) => ({ key, name: path.basename(key).replace(/\.[jt]sx?$/, '') }))
  .sort((a, b) => a.name.localeCompare(b.name))
if (!routes.some((r) => r.name === LAYOUT)) throw new Error(`no ${ROUTE_DIR}${LAYOUT} chunk: update this script`)
const layoutKey = routes.find((r) => r.name === LAYOUT).key
const layout = minus(closure(layoutKey), entry)

const failures = []
const rows = []
for (const route of routes) {
  if (route.name === LAYOUT) continue
  // What is loaded before the route's own chunk: the entry, and the layout for signed-in screens.
  const before = OUTSIDE_LAYOUT.has(route.name) ? entry : union(entry, layout)
  const own = minus(closure(route.key), before)
  const ownKib = kib(own)
  const pageKib = kib(union(before, own))
  const lazy = (manifest[route.key].dynamicImports ?? []).length
  rows.push({ route: route.name, ownKib, pageKib, chunks: own.size, lazy })
  if (ownKib > ROUTE_KIB) failures.push(`route ${route.name} adds ${ownKib.toFixed(1)} KiB (budget ${ROUTE_KIB} KiB)`)
}
for (const [page, name] of Object.entries(INITIAL_PAGES)) {
  const row = rows.find((r) => r.route === name)
  if (!row) throw new Error(`no route module ${ROUTE_DIR}${name}: update INITIAL_PAGES`)
  row.initialPage = page
  row.growthKib = row.pageKib - PRE_CHARTS_KIB[page]
  if (row.pageKib > INITIAL_KIB) {
    failures.push(`first visit to ${page} loads ${row.pageKib.toFixed(1)} KiB (budget ${INITIAL_KIB} KiB)`)
  }
  if (row.growthKib > GROWTH_KIB) {
    failures.push(
      `first visit to ${page} grew by ${row.growthKib.toFixed(2)} KiB over the pre-charts ${PRE_CHARTS_KIB[page]} KiB (budget +${GROWTH_KIB} KiB)`,
    )
  }
}

const pad = (s, n) => String(s).padEnd(n)
const num = (n) => n.toFixed(1).padStart(9)
console.log(
  `JavaScript, gzip KiB (entry ${kib(entry).toFixed(1)}, signed-in layout +${kib(layout).toFixed(1)}); budgets: first visit to ${Object.keys(INITIAL_PAGES).join(' and ')} <= ${INITIAL_KIB} and <= pre-charts + ${GROWTH_KIB}, each route <= ${ROUTE_KIB}`,
)
console.log(`${pad('route', 24)}${'route adds'.padStart(10)}${'page total'.padStart(11)}  chunks  lazy imports`)
for (const r of rows) {
  const growth =
    r.growthKib === undefined ? '' : ` (${r.growthKib < 0 ? '' : '+'}${r.growthKib.toFixed(2)} over pre-charts)`
  const mark = r.initialPage ? `  <- first visit to ${r.initialPage}${growth}` : ''
  console.log(
    `${pad(r.route, 24)}${num(r.ownKib)} ${num(r.pageKib)}  ${String(r.chunks).padStart(6)}  ${String(r.lazy).padStart(12)}${mark}`,
  )
}
if (failures.length) {
  console.error(`\nBundle budget exceeded:\n- ${failures.join('\n- ')}`)
  process.exit(1)
}
console.log('\nBundle budget: within limits.')
