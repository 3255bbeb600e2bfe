#!/usr/bin/env node
// Start-up time and memory of the server (docs/performance.md "Start-up"):
// `node scripts/measure-startup.mjs [runs] [--warm] -- <command...>` starts the command `runs`
// times (default 3) on a fresh DATA_DIR (with --warm: on one DATA_DIR that an unmeasured first
// start migrated and seeded, so a restart), measures the time until GET /api/ready answers 200
// and the resident memory of the process tree 2 s after that, and prints each run and the median.
// The environment passes through (SCORM_CLOUD_* set: no demo mode, no simulator).
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const sep = process.argv.indexOf('--')
if (sep < 0 || sep === process.argv.length - 1) {
  console.error('usage: node scripts/measure-startup.mjs [runs] -- <command...>')
  process.exit(2)
}
const options = process.argv.slice(2, sep)
const runs = Number(options.find((o) => /^\d+$/.test(o)) ?? 3)
const warm = options.includes('--warm')
const sharedDataDir = warm ? mkdtempSync(path.join(tmpdir(), 'portal-startup-')) : null
const [command, ...args] = process.argv.slice(sep + 1)
const port = Number(process.env.PORT ?? 3490)
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Resident memory (MB) of a process and its descendants, from /proc. */
function treeRssMb(rootPid) {
  const children = new Map()
  const rss = new Map()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8')
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1])
      rss.set(Number(entry), Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0))
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)])
    } catch {
      // The process ended while we read.
    }
  }
  let kb = 0
  const queue = [rootPid]
  while (queue.length) {
    const pid = queue.pop()
    kb += rss.get(pid) ?? 0
    queue.push(...(children.get(pid) ?? []))
  }
  return kb / 1024
}

async function once() {
  const dataDir = sharedDataDir ?? mkdtempSync(path.join(tmpdir(), 'portal-startup-'))
  const started = performance.now()
  const child = spawn(command, args, {
    stdio: 'ignore',
    detached: true,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  })
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`)
      const ok = await fetch(`http://127.0.0.1:${port}/api/ready`).then(
        (res) => res.ok,
        () => false,
      )
      if (ok) break
      if (performance.now() - started > 120_000) throw new Error('not ready after 120 s')
      await sleep(25)
    }
    const readyMs = performance.now() - started
    await sleep(2000)
    return { readyMs, rssMb: treeRssMb(child.pid) }
  } finally {
    process.kill(-child.pid, 'SIGTERM')
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)))
    if (!sharedDataDir) rmSync(dataDir, { recursive: true, force: true })
  }
}

if (warm) await once()
const results = []
for (let i = 0; i < runs; i++) {
  const r = await once()
  results.push(r)
  console.log(`run ${i + 1}: ready after ${(r.readyMs / 1000).toFixed(2)} s, RSS ${r.rssMb.toFixed(1)} MB`)
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]
if (sharedDataDir) rmSync(sharedDataDir, { recursive: true, force: true })
console.log(
  `median of ${runs}${warm ? ' restarts' : ''}: ready after ${(median(results.map((r) => r.readyMs)) / 1000).toFixed(2)} s, ` +
    `RSS ${median(results.map((r) => r.rssMb)).toFixed(1)} MB (${[command, ...args].join(' ')})`,
)
