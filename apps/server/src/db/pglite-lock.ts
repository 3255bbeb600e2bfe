import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import path from 'node:path'
import { ConfigError } from '../config'

/** What holds the embedded database's folder for this process; released when it closes. */
export interface FolderHold {
  release(): void
}

/** Whether a process with this id runs on this machine (EPERM: it runs, as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * PGlite runs PostgreSQL inside this process, with no postmaster to refuse a second one: two
 * servers started on one DATA_DIR both open its files and write over each other's pages, and the
 * folder can be left unreadable. So the first server writes its process id to `pglite.lock` beside
 * the folder, created only if absent; a second start finds it and stops with a message, as
 * PostgreSQL does with its own postmaster.pid. A lock left by a process that no longer runs (killed,
 * crashed, or this very process id again after a restart) is taken over.
 */
export function holdPgliteFolder(folder: string): FolderHold {
  const file = path.join(path.dirname(folder), `${path.basename(folder)}.lock`)
  const mine = String(process.pid)
  for (let attempt = 0; attempt < 3; attempt += 1) {
    let fd: number
    try {
      fd = openSync(file, 'wx')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = Number.parseInt(readHolder(file), 10)
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && running(holder)) {
        throw new ConfigError(
          'DATA_DIR',
          `is in use by another server process on this machine (process ${holder}): the embedded database ` +
            'can be opened by one process at a time. Stop that server first, or start this one with another ' +
            'DATA_DIR (or DATABASE_URL for PostgreSQL, which several servers can share).',
        )
      }
      // Left by a process that no longer runs: removed, and created again on the next attempt.
      rmSync(file, { force: true })
      continue
    }
    try {
      writeSync(fd, mine)
    } finally {
      closeSync(fd)
    }
    return {
      release() {
        // Only our own: a lock taken over after this process was thought gone is not removed.
        if (readHolder(file) === mine) rmSync(file, { force: true })
      },
    }
  }
  throw new ConfigError('DATA_DIR', `could not be locked for this server: "${file}" keeps reappearing`)
}

/** The process id written in the lock ('' when it is gone or cannot be read). */
function readHolder(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim()
  } catch {
    return ''
  }
}
