import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ConfigError } from '../config'
import { holdPgliteFolder } from './pglite-lock'

let root: string
let folder: string
let lock: string
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'portal-pglite-lock-'))
  folder = path.join(root, 'pglite')
  lock = path.join(root, 'pglite.lock')
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

/** Another process that runs until killed, standing for a second server. */
function otherProcess() {
  // Kept alive by its open standard input until it is killed.
  const child = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] })
  const ended = new Promise((resolve) => child.once('exit', resolve))
  return { pid: child.pid!, stop: () => (child.kill('SIGKILL'), ended) }
}

describe('holding the embedded database folder', () => {
  it('writes this process id beside the folder and removes it on release', () => {
    const hold = holdPgliteFolder(folder)
    expect(readFileSync(lock, 'utf8')).toBe(String(process.pid))
    hold.release()
    expect(existsSync(lock)).toBe(false)
  })

  it('refuses a folder held by another running process, and takes it over once that process is gone', async () => {
    const other = otherProcess()
    try {
      writeFileSync(lock, String(other.pid))
      expect(() => holdPgliteFolder(folder)).toThrow(ConfigError)
      expect(() => holdPgliteFolder(folder)).toThrow(
        `Invalid configuration: DATA_DIR is in use by another server process on this machine (process ${other.pid})`,
      )
      expect(readFileSync(lock, 'utf8')).toBe(String(other.pid))
    } finally {
      await other.stop()
    }
    const hold = holdPgliteFolder(folder)
    expect(readFileSync(lock, 'utf8')).toBe(String(process.pid))
    hold.release()
  })

  it('takes over a lock that names no process, or this one', () => {
    for (const content of ['', 'not a process id', String(process.pid)]) {
      writeFileSync(lock, content)
      const hold = holdPgliteFolder(folder)
      expect(readFileSync(lock, 'utf8')).toBe(String(process.pid))
      hold.release()
    }
  })

  it('leaves a lock that another process took over on release', () => {
    const hold = holdPgliteFolder(folder)
    writeFileSync(lock, '999999')
    hold.release()
    expect(readFileSync(lock, 'utf8')).toBe('999999')
  })
})
