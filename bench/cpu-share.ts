/**
 * How much of the machine something else used while a row ran: the machine's busy CPU time
 * (/proc/stat) minus the CPU time of the bench's own processes (this process, its children, and
 * the PostgreSQL processes serving portal_bench, plus PostgreSQL's shared writers). On a shared
 * 2-core machine a test suite started by someone else shows up here, and the report flags the
 * rows it may have slowed.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { BENCH_DB_NAME } from './config'

/** Linux's USER_HZ: /proc reports CPU time in these ticks. */
const TICKS_PER_SECOND = 100
/**
 * A backend serving portal_bench, a copy of it made for an A/B run (portal_bench_base...), or the
 * larger seed (portal_bench10) that bench/scales.ts measures beside it.
 */
const BENCH_BACKEND = new RegExp(` ${BENCH_DB_NAME}\\w* `)
const SHARED_PG =
  /postgres: .*(walwriter|checkpointer|background writer|logical replication launcher|autovacuum launcher)/

function busyTicks(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!
  const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number)
  return user! + nice! + system! + irq! + softirq! + (steal ?? 0)
}

interface Proc {
  ppid: number
  ticks: number
  cmdline: string
}

function processes(): Map<number, Proc> {
  const out = new Map<number, Proc>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // Fields after the command name, which may itself hold spaces and parentheses.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ')
      out.set(Number(entry), { ppid: Number(rest[1]), ticks: Number(rest[11]) + Number(rest[12]), cmdline })
    } catch {
      // gone between readdir and read
    }
  }
  return out
}

/** `pid` is `root` or one of its descendants (the server's npm/tsx wrapper runs the real process as a child). */
function descends(procs: Map<number, Proc>, pid: number, root: number): boolean {
  for (let p: number | undefined = pid, hops = 0; p && hops < 20; p = procs.get(p)?.ppid, hops += 1) {
    if (p === root) return true
  }
  return false
}

function ours(procs: Map<number, Proc>): Set<number> {
  const mine = new Set<number>()
  // Our ancestors (npm, the tsx wrapper) are idle; our descendants do the work.
  const isDescendant = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p && hops < 20; p = procs.get(p)?.ppid, hops += 1) {
      if (p === process.pid) return true
    }
    return false
  }
  for (const [pid, proc] of procs) {
    if (isDescendant(pid) || BENCH_BACKEND.test(proc.cmdline) || SHARED_PG.test(proc.cmdline)) mine.add(pid)
  }
  return mine
}

/** CPU used during a window, in seconds. */
export interface CpuWindow {
  /** Cores' worth of CPU used by other work on the machine during the window (0 = none). */
  otherCores: number
  /** The whole machine's busy CPU time (every process, ours or not). */
  machineSeconds: number
  /** PostgreSQL's backends serving portal_bench, and its shared writers. */
  postgresSeconds: number
  /** The server under test (the process given to startCpuShare and its children); 0 without one. */
  serverSeconds: number
}

/** `serverPid`: the server under test, whose CPU is reported apart from the load generator's. */
export function startCpuShare(serverPid?: number) {
  const busy = busyTicks()
  const before = processes()
  const started = performance.now()
  return {
    stop(): CpuWindow {
      const after = processes()
      const mine = ours(after)
      const delta = (pid: number) => after.get(pid)!.ticks - (before.get(pid)?.ticks ?? 0)
      let ourTicks = 0
      let postgresTicks = 0
      let serverTicks = 0
      for (const pid of mine) {
        ourTicks += delta(pid)
        const cmdline = after.get(pid)!.cmdline
        if (BENCH_BACKEND.test(cmdline) || SHARED_PG.test(cmdline)) postgresTicks += delta(pid)
        else if (serverPid !== undefined && descends(after, pid, serverPid)) serverTicks += delta(pid)
      }
      const seconds = (performance.now() - started) / 1000
      const machineTicks = busyTicks() - busy
      const foreign = Math.max(0, machineTicks - ourTicks) / TICKS_PER_SECOND
      return {
        otherCores: seconds > 0 ? Math.round((foreign / seconds) * 100) / 100 : 0,
        machineSeconds: machineTicks / TICKS_PER_SECOND,
        postgresSeconds: postgresTicks / TICKS_PER_SECOND,
        serverSeconds: serverTicks / TICKS_PER_SECOND,
      }
    },
  }
}
