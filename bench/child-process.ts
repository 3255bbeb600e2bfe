/**
 * Children of the bench: TypeScript run as `node --import tsx file.ts`, so the pid we sample is
 * the process doing the work (the `tsx` CLI would put a wrapper process in between), or compiled
 * JavaScript run by node alone. Every child is remembered and ended by its pid when the bench
 * stops, however it stops.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import { ROOT } from './config'

const children = new Set<ChildProcess>()

export function killChildren(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(child.pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
  }
  children.clear()
}

export interface StartedChild {
  child: ChildProcess
  pid: number
  /** Resolves with the first stdout line matching `pattern`; rejects if the child exits first. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>
  /** Resolves with the exit code. */
  exited: Promise<number | null>
  /** The last lines the child wrote to stderr, for error messages. */
  stderrTail(): string
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>
}

export interface ChildOptions {
  env?: Record<string, string>
  /** The child's stdout goes straight to this file (server request logs); waitForLine then never matches. */
  stdoutFile?: string
  /** Flags for node itself, before the script (e.g. --cpu-prof, which NODE_OPTIONS refuses). */
  nodeArgs?: string[]
}

export function startTsChild(script: string, args: string[], options: ChildOptions = {}): StartedChild {
  return startNodeChild(script, args, { ...options, nodeArgs: [...(options.nodeArgs ?? []), '--import', 'tsx'] })
}

/** A JavaScript child as plain `node file.js` (compiled code, as production runs it). */
export function startNodeChild(script: string, args: string[], options: ChildOptions = {}): StartedChild {
  // A log file is handed to the child as its stdout, so its request log never passes through us.
  const logFd = options.stdoutFile ? openSync(options.stdoutFile, 'a') : null
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', logFd ?? 'pipe', 'pipe'],
  })
  if (logFd !== null) closeSync(logFd)
  children.add(child)
  if (!child.pid) throw new Error(`could not start ${script}`)
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      children.delete(child)
      resolve(code)
    })
  })
  const stderr: string[] = []
  child.stderr!.setEncoding('utf8')
  child.stderr!.on('data', (text: string) => {
    stderr.push(text)
    if (stderr.length > 50) stderr.shift()
  })
  const listeners = new Set<(line: string) => void>()
  // Lines already seen: a later wait may look for a line that arrived in the same chunk.
  const history: string[] = []
  let buffered = ''
  child.stdout?.setEncoding('utf8')
  child.stdout?.on('data', (text: string) => {
    buffered += text
    const lines = buffered.split('\n')
    buffered = lines.pop() ?? ''
    for (const line of lines) {
      history.push(line)
      if (history.length > 200) history.shift()
      for (const listener of listeners) listener(line)
    }
  })

  return {
    child,
    pid: child.pid,
    exited,
    stderrTail: () => stderr.join('').split('\n').slice(-15).join('\n'),
    waitForLine(pattern, timeoutMs) {
      const seen = history.map((line) => pattern.exec(line)).find(Boolean)
      if (seen) return Promise.resolve(seen)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => done(new Error(`${script}: no "${pattern.source}" within ${timeoutMs} ms`)),
          timeoutMs,
        )
        const onLine = (line: string) => {
          const match = pattern.exec(line)
          if (match) done(null, match)
        }
        const onExit = (code: number | null) =>
          done(new Error(`${script} exited (${code}) before "${pattern.source}":\n${stderr.join('').slice(-2000)}`))
        function done(error: Error | null, match?: RegExpExecArray) {
          clearTimeout(timer)
          listeners.delete(onLine)
          child.off('exit', onExit)
          if (error) reject(error)
          else resolve(match!)
        }
        listeners.add(onLine)
        child.once('exit', onExit)
      })
    },
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
      await exited
      clearTimeout(timer)
    },
  }
}

/** A bench script's entry: exit 0 when `main` resolves; print the error, stop the children and exit 1 when it fails. */
export function runMain(main: () => Promise<unknown>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? (error.stack ?? error.message) : String(error))
      killChildren()
      process.exit(1)
    },
  )
}
