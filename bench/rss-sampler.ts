/**
 * Samples a process's resident set size from /proc/<pid>/status (VmRSS) every 100 ms. Reading
 * /proc costs the measured process nothing, unlike asking it for process.memoryUsage().
 */
import { readFileSync } from 'node:fs'

export interface RssSummary {
  startMb: number
  peakMb: number
  endMb: number
  /** Peak minus the value when sampling started. */
  growthMb: number
  samples: number
}

export function readRssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)
    return match ? Number(match[1]) / 1024 : null
  } catch {
    return null // the process is gone
  }
}

export function sampleRss(pid: number, intervalMs = 100) {
  // A process just spawned may not be readable yet: the first real sample is the start.
  let first: number | null = readRssMb(pid)
  let peak = first ?? 0
  let last = peak
  let samples = first === null ? 0 : 1
  const timer = setInterval(() => {
    const value = readRssMb(pid)
    if (value === null) return
    first ??= value
    samples += 1
    last = value
    if (value > peak) peak = value
  }, intervalMs)
  timer.unref()
  return {
    /** The latest sample, for progress lines. */
    peek: () => last,
    stop(): RssSummary {
      clearInterval(timer)
      const end = readRssMb(pid) ?? last
      peak = Math.max(peak, end)
      const round = (n: number) => Math.round(n * 10) / 10
      return {
        startMb: round(first ?? 0),
        peakMb: round(peak),
        endMb: round(end),
        growthMb: round(peak - (first ?? 0)),
        samples,
      }
    },
  }
}
