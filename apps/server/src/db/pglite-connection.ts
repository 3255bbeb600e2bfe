import { EventEmitter } from 'node:events'
import type { PGlite } from '@electric-sql/pglite'
import { serialize } from 'pg-protocol'

/**
 * node-postgres's connection to a PGlite instance, for the client that runs kept statements
 * (db/driver.ts). It speaks as PGlite's own node-postgres connection does (the messages are
 * handed to `execProtocolStream`, the answers emitted as node-postgres's socket parser would),
 * with one difference: node-postgres corks its stream while it writes a statement's messages
 * (parse, bind, describe, execute, sync), and here the corked messages go to PGlite as one
 * buffer. PGlite's connection hands every message over on its own: each a call into
 * PostgreSQL with its own ReadyForQuery check, output flush, parser and promise, four or five
 * a statement. PostgreSQL reads a buffer of several messages as it reads them from a socket, in
 * order, skipping to the Sync after an error, so the answers are the same. It speaks only what
 * the kept client asks: statements and settings, no COPY, no authentication.
 */
export class BatchingPgliteConnection extends EventEmitter {
  readonly #pglite: PGlite
  #queue: Promise<void>
  #corked = 0
  #pending: Buffer[] = []

  // What node-postgres's Client reads and writes on its connection.
  _connecting = false
  parsedStatements: Record<string, string> = {}
  submittedNamedStatements: Record<string, string> = {}
  readonly stream = {
    cork: () => {
      this.#corked++
    },
    uncork: () => {
      if (this.#corked > 0 && --this.#corked === 0) this.#flushPending()
    },
    destroy: () => this.end(),
  }

  constructor(pglite: PGlite) {
    super()
    this.#pglite = pglite
    this.#queue = pglite.waitReady
  }

  #write(message: Buffer) {
    this.#pending.push(message)
    if (this.#corked === 0) this.#flushPending()
  }

  #flushPending() {
    if (this.#pending.length === 0) return
    const buffer = this.#pending.length === 1 ? this.#pending[0]! : Buffer.concat(this.#pending)
    this.#pending = []
    this.#queue = this.#queue
      .then(() => this.#pglite.execProtocolStream(buffer, { throwOnError: false }))
      .then((messages) => {
        // node-postgres listens for each message by its name, and for an ErrorResponse as 'errorMessage'.
        for (const message of messages) this.emit(message.name === 'error' ? 'errorMessage' : message.name, message)
      })
      .catch((error: unknown) => {
        this.emit('error', error)
      })
  }

  async connect() {
    this._connecting = true
    await this.#pglite.waitReady
    process.nextTick(() => this.emit('readyForQuery'))
  }

  // A PGlite session has no socket to secure, no password and no other backend to cancel.
  requestSsl() {}
  startup() {}
  cancel() {}
  password() {}
  ref() {}
  unref() {}

  query(text: string) {
    this.#write(serialize.query(text))
  }
  parse(query: Parameters<typeof serialize.parse>[0]) {
    this.#write(serialize.parse(query))
  }
  bind(config: Parameters<typeof serialize.bind>[0]) {
    this.#write(serialize.bind(config))
  }
  execute(config: Parameters<typeof serialize.execute>[0]) {
    this.#write(serialize.execute(config))
  }
  describe(message: Parameters<typeof serialize.describe>[0]) {
    this.#write(serialize.describe(message))
  }
  close(message: Parameters<typeof serialize.close>[0]) {
    this.#write(serialize.close(message))
  }
  flush() {
    this.#write(serialize.flush())
  }
  sync() {
    this.#write(serialize.sync())
  }

  /** Like a socket closing: node-postgres waits for 'end'. The PGlite instance stays open (its owner closes it). */
  end() {
    this.#queue = this.#queue.then(() => {
      this.emit('end')
    })
    this.removeAllListeners()
  }
}
