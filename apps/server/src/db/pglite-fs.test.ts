import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { afterEach, describe, expect, it } from 'vitest'
import { newPglite } from './client'
import { SizeKeepingNodeFS, keepFileSizes } from './pglite-fs'

const folders: string[] = []
function tempFolder() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-pglite-fs-'))
  folders.push(folder)
  return folder
}
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true })
})

const REGULAR_FILE = 0o100644
const SEEK_SET = 0
const SEEK_END = 2

/**
 * Emscripten's Node file system as far as keepFileSizes uses it, on a real file: a seek to the
 * end asks the operating system (fstat), as NODEFS does.
 */
function fileOps(file: string) {
  const fd = fs.openSync(file, 'w+')
  const node = { mode: REGULAR_FILE }
  const stream = { node }
  const fstats = { calls: 0 }
  const nodefs = {
    stream_ops: {
      llseek(_stream: unknown, offset: number, whence: number) {
        if (whence !== SEEK_END) return offset
        fstats.calls += 1
        return fs.fstatSync(fd).size + offset
      },
      write(_stream: unknown, buffer: unknown, offset: number, length: number, position: number) {
        return fs.writeSync(fd, buffer as Uint8Array, offset, length, position)
      },
      setattr(_stream: unknown, attr: { size?: number }) {
        if (attr.size !== undefined) fs.ftruncateSync(fd, attr.size)
      },
    },
    node_ops: {
      setattr(_node: unknown, attr: { size?: number }) {
        if (attr.size !== undefined) fs.truncateSync(file, attr.size)
      },
    },
  }
  return { fd, node, stream, nodefs, fstats }
}

describe('keepFileSizes', () => {
  it('answers a seek to the end from the size kept since the last write or truncation', () => {
    const { stream, node, nodefs, fstats, fd } = fileOps(path.join(tempFolder(), 'relation'))
    const counts = keepFileSizes(nodefs)
    const ops = nodefs.stream_ops
    const end = () => ops.llseek(stream, 0, SEEK_END)

    expect(end()).toBe(0)
    ops.write(stream, Buffer.alloc(8192, 1), 0, 8192, 0)
    ops.write(stream, Buffer.alloc(8192, 2), 0, 8192, 8192)
    expect(end()).toBe(16_384)
    // A write inside the file does not make it longer.
    ops.write(stream, Buffer.alloc(100, 3), 0, 100, 10)
    expect(end()).toBe(16_384)
    expect(ops.llseek(stream, -8192, SEEK_END)).toBe(8192)
    // Only the first seek asked the operating system.
    expect(fstats.calls).toBe(1)

    ops.setattr(stream, { size: 4096 })
    expect(end()).toBe(4096)
    nodefs.node_ops.setattr(node, { size: 1000 })
    expect(end()).toBe(1000)
    expect(end()).toBe(fs.fstatSync(fd).size)
    expect(fstats.calls).toBe(3)
    expect(counts).toEqual({ asked: 7, kept: 4 })
    // Any other seek is the file system's own.
    expect(ops.llseek(stream, 5, SEEK_SET)).toBe(5)
    fs.closeSync(fd)
  })

  it('asks the size again after a write that failed, which may have written part of its bytes', () => {
    const file = path.join(tempFolder(), 'relation')
    const { stream, nodefs, fd } = fileOps(file)
    const write = nodefs.stream_ops.write
    nodefs.stream_ops.write = (...args) => {
      write(...args)
      throw new Error('EIO')
    }
    keepFileSizes(nodefs)
    expect(nodefs.stream_ops.llseek(stream, 0, SEEK_END)).toBe(0)
    expect(() => nodefs.stream_ops.write(stream, Buffer.alloc(100), 0, 100, 0)).toThrow('EIO')
    expect(nodefs.stream_ops.llseek(stream, 0, SEEK_END)).toBe(100)
    fs.closeSync(fd)
  })

  it('in verify mode, refuses a kept size the file on disk no longer has', () => {
    const file = path.join(tempFolder(), 'relation')
    const { stream, nodefs, fd } = fileOps(file)
    keepFileSizes(nodefs, { verify: true })
    nodefs.stream_ops.write(stream, Buffer.alloc(8192), 0, 8192, 0)
    expect(nodefs.stream_ops.llseek(stream, 0, SEEK_END)).toBe(8192)
    // Written past the file system: what the kept sizes rule out (PGlite is the folder's only writer).
    fs.appendFileSync(file, Buffer.alloc(10))
    expect(() => nodefs.stream_ops.llseek(stream, 0, SEEK_END)).toThrow(
      'A kept file size was wrong: 8192 bytes kept, 8202 on disk.',
    )
    fs.closeSync(fd)
  })
})

describe('SizeKeepingNodeFS', () => {
  it("keeps PostgreSQL's file sizes exact through growth, truncation, rewrites and a restart", async () => {
    const folder = tempFolder()
    const sizes = new SizeKeepingNodeFS(folder, { verify: true })
    const pg = new PGlite({ fs: sizes })
    // Every size answered from memory below is checked against the file on disk (verify).
    await pg.exec('create table note (id serial primary key, body text not null)')
    await pg.exec(`insert into note (body) select repeat('x', 300) from generate_series(1, 20000)`)
    await pg.exec('create index note_body_idx on note (body)')
    for (const statement of [
      'delete from note where id % 2 = 0',
      'vacuum note',
      'truncate note',
      `insert into note (body) select md5(g::text) from generate_series(1, 5000) as g`,
      'vacuum full note',
      'checkpoint',
    ]) {
      await pg.exec(statement)
    }
    for (let i = 0; i < 20; i += 1) await pg.query(`select count(*) from note where body like $1`, ['%ab%'])
    expect((await pg.query<{ n: number }>('select count(*)::int as n from note')).rows).toEqual([{ n: 5000 }])
    expect(sizes.counts!.asked).toBeGreaterThan(100)
    expect(sizes.counts!.kept).toBeGreaterThan(sizes.counts!.asked / 2)
    await pg.close()

    // The folder as PGlite's own file system reads it.
    const plain = new PGlite({ dataDir: folder })
    const rows = await plain.query<{ n: number; long: number }>(
      `select count(*)::int as n, count(*) filter (where length(body) <> 32)::int as long from note`,
    )
    expect(rows.rows).toEqual([{ n: 5000, long: 0 }])
    await plain.exec(`insert into note (body) select md5(g::text) from generate_series(1, 100) as g`)
    await plain.close()

    const again = new PGlite({ fs: new SizeKeepingNodeFS(folder, { verify: true }) })
    expect((await again.query<{ n: number }>('select count(*)::int as n from note')).rows).toEqual([{ n: 5100 }])
    await again.close()
  })

  it('is what a PGlite of the server on a folder runs on', async () => {
    const pg = newPglite(tempFolder())
    await pg.waitReady
    expect((pg as unknown as { fs: unknown }).fs).toBeInstanceOf(SizeKeepingNodeFS)
    await pg.close()
  })
})
