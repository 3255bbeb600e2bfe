import type { PGlite } from '@electric-sql/pglite'
import { NodeFS } from '@electric-sql/pglite/nodefs'

/**
 * The parts of Emscripten's Node file system (NODEFS) that PGlite's folder on disk runs on and
 * that SizeKeepingNodeFS wraps. Emscripten passes a stream (an open file) or a node (a file).
 */
interface EmscriptenNode {
  mode: number
}
interface EmscriptenStream {
  node: EmscriptenNode
}
interface NodeFsOps {
  stream_ops: {
    llseek(stream: EmscriptenStream, offset: number, whence: number): number
    write(
      stream: EmscriptenStream,
      buffer: unknown,
      offset: number,
      length: number,
      position: number,
      ...rest: unknown[]
    ): number
    setattr(stream: EmscriptenStream, attr: { size?: number }): void
  }
  node_ops: {
    setattr(node: EmscriptenNode, attr: { size?: number }): void
  }
}
type PostgresModule = Parameters<NodeFS['init']>[1] & { NODEFS?: NodeFsOps }

const SEEK_END = 2
/** The file-type bits of a mode (S_IFMT), and those of a regular file (S_IFREG). */
const S_IFMT = 0o170000
const S_IFREG = 0o100000
const isRegularFile = (node: EmscriptenNode) => (node.mode & S_IFMT) === S_IFREG

/** What keepFileSizes counts, for the test that checks each size it answered. */
export interface FileSizeCounts {
  /** Sizes asked (a seek to a file's end). */
  asked: number
  /** Of those, answered from memory without asking the operating system. */
  kept: number
}

/**
 * Answers a seek to a file's end from the size kept for the file since its last change, instead
 * of an fstat call each time. PostgreSQL asks a relation file's size (`lseek(fd, 0, SEEK_END)`)
 * whenever it plans a statement, for every table and index the plan considers, and when it
 * starts a scan. On PostgreSQL that is a cheap system call; under PGlite each is a synchronous
 * fstat through Node's fs, about a hundred per API request, which a CPU profile of the server
 * on PGlite's folder put at the largest single cost outside PostgreSQL itself.
 *
 * The kept size is exact because this PGlite is the only writer of its folder (PGlite runs one
 * PostgreSQL, in this process, and a folder may be opened by one PGlite at a time), and every
 * change of a file's size goes through Emscripten's file system: a write (which makes the file
 * at least as long as its end), or a truncation (setattr with a size, on the open file or on the
 * path), where the kept size is updated or forgotten. A file that is removed and made again is a
 * new node, with nothing kept.
 *
 * `verify`: every size answered from memory is checked against the file's real size, and a
 * difference throws (the file-size test runs a workload in this mode).
 */
export function keepFileSizes(nodefs: NodeFsOps, options: { verify?: boolean } = {}): FileSizeCounts {
  const sizes = new WeakMap<EmscriptenNode, number>()
  const counts: FileSizeCounts = { asked: 0, kept: 0 }
  const { stream_ops: streamOps, node_ops: nodeOps } = nodefs
  const { llseek, write, setattr: setStreamAttr } = streamOps
  const setNodeAttr = nodeOps.setattr

  streamOps.llseek = function (stream, offset, whence) {
    if (whence !== SEEK_END || !isRegularFile(stream.node)) return llseek.call(this, stream, offset, whence)
    counts.asked += 1
    const kept = sizes.get(stream.node)
    if (kept !== undefined && !options.verify) {
      counts.kept += 1
      return kept + offset
    }
    const size = llseek.call(this, stream, 0, SEEK_END)
    if (kept !== undefined) {
      if (kept !== size) throw new Error(`A kept file size was wrong: ${kept} bytes kept, ${size} on disk.`)
      counts.kept += 1
    }
    sizes.set(stream.node, size)
    return size + offset
  }
  streamOps.write = function (stream, buffer, offset, length, position, ...rest) {
    let written: number
    try {
      written = write.call(this, stream, buffer, offset, length, position, ...rest)
    } catch (error) {
      // A failed write may have written part of its bytes: the size is asked again.
      sizes.delete(stream.node)
      throw error
    }
    const kept = sizes.get(stream.node)
    if (kept !== undefined) sizes.set(stream.node, Math.max(kept, position + written))
    return written
  }
  streamOps.setattr = function (stream, attr) {
    if (attr.size !== undefined) sizes.delete(stream.node)
    return setStreamAttr.call(this, stream, attr)
  }
  nodeOps.setattr = function (node, attr) {
    if (attr.size !== undefined) sizes.delete(node)
    return setNodeAttr.call(this, node, attr)
  }
  return counts
}

/**
 * PGlite's folder on disk (PGlite's own NodeFS) with file sizes kept in memory between their
 * changes (keepFileSizes).
 */
export class SizeKeepingNodeFS extends NodeFS {
  /** Set once PGlite has mounted the folder. */
  counts: FileSizeCounts | null = null

  constructor(
    dataDir: string,
    private readonly options: { verify?: boolean } = {},
  ) {
    super(dataDir)
  }

  override async init(pg: PGlite, opts: PostgresModule) {
    const { emscriptenOpts } = await super.init(pg, opts)
    const preRun = [emscriptenOpts.preRun ?? []].flat()
    return {
      emscriptenOpts: {
        ...emscriptenOpts,
        // After NodeFS's own step, which mounts the folder.
        preRun: [
          ...preRun,
          (module: PostgresModule) => {
            if (!module.NODEFS) throw new Error("PGlite's module has no Node file system to keep sizes for.")
            this.counts = keepFileSizes(module.NODEFS, this.options)
          },
        ],
      },
    }
  }
}
