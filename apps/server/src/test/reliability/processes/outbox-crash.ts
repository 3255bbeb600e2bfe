import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import { SMTPServer } from 'smtp-server'
import { expect } from 'vitest'
import type { Db } from '../../../db/client'
import { createOutboxRepository, UNCERTAIN_MESSAGE } from '../../../modules/mail/outbox.repository'
import { eventually, startServer, type ServerProcess } from './server-process'

/**
 * The outbox under SIGKILL (shared by the PGlite and PostgreSQL files): a real server process
 * sends queued alert mails to a real SMTP receiver started here; the receiver takes HELD_AFTER
 * mails, then keeps the next one's data without answering, so the kill lands, every time, while
 * exactly one mail is being handed over (the lost-reply window) and the rest of the batch is
 * claimed but untried. After the restart and the lease's end, every mail that was not handed
 * over arrives exactly once, and only the held one is `uncertain`.
 */

/** Long: two process starts, two 15 s polls and a few hundred SMTP sessions on a shared machine. */
export const TIMEOUT_MS = 240_000
export const MAILS = 364
export const HELD_AFTER = 49
/** The worker's batch (outbox.worker.ts): 49 sent is two batches and 9 of the third. */
const BATCH = 20
const KEY_PREFIX = 'alert:crash-'
const KEY = (i: number) => `${KEY_PREFIX}${i}:user`
/** The Message-ID the worker derives from an idempotency key (outbox.worker.ts). */
const keyOfMessageId = (raw: string) => /^Message-ID:\s*<([^@>]+)@/im.exec(raw)?.[1] ?? null
const messageIdOf = (key: string) => key.replace(/[^\w.-]/g, '.')

export interface SmtpReceiver {
  url: string
  /** Message-IDs (as derived from the keys) of the mails accepted with 250, in order. */
  accepted: string[]
  /** Mails whose data arrived but got no reply: the process died waiting for it. */
  held: string[]
  /** From now on every mail is answered (the held ones stay unanswered). */
  release(): void
  close(): Promise<void>
}

export async function startHoldingReceiver(holdAfter: number): Promise<SmtpReceiver> {
  const accepted: string[] = []
  const held: string[] = []
  let holding = true
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const id = keyOfMessageId(Buffer.concat(chunks).toString('utf8')) ?? '(no Message-ID)'
        // Not one of the scenario's mails (a scheduled digest of the first admin, say): answered.
        if (!id.startsWith(messageIdOf(KEY_PREFIX))) return callback()
        // The whole message is here; the reply is never sent while holding.
        if (holding && accepted.length >= holdAfter) return void held.push(id)
        accepted.push(id)
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    accepted,
    held,
    release() {
      holding = false
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** How the scenario reaches the database while no server process holds it (PGlite). */
export interface OutboxDatabase {
  env: Record<string, string>
  /** Runs `work` on the database; PGlite opens and closes its folder around it. */
  use<T>(work: (db: Db) => Promise<T>): Promise<T>
}

type Row = { key: string; status: string; handover: boolean; attempts: number; last_error: string | null }
const outboxState = (db: Db) =>
  db
    .execute(
      sql`select idempotency_key as key, status, handover_started_at is not null as handover, attempts, last_error
          from mail_outbox where idempotency_key like 'alert:crash-%' order by id`,
    )
    .then((r) => (r as unknown as { rows: Row[] }).rows)
const countBy = (rows: Row[], pick: (r: Row) => string) =>
  rows.reduce<Record<string, number>>((acc, r) => ({ ...acc, [pick(r)]: (acc[pick(r)] ?? 0) + 1 }), {})

export async function runOutboxCrash(database: OutboxDatabase) {
  await database.use((db) =>
    createOutboxRepository(db).enqueue(
      Array.from({ length: MAILS }, (_, i) => ({
        idempotencyKey: KEY(i),
        kind: 'alert' as const,
        userId: null,
        to: `recipient-${i}@example.test`,
        subject: `Alert ${i}`,
        text: `Alert mail ${i}`,
        html: `<p>Alert mail ${i}</p>`,
      })),
    ),
  )
  const receiver = await startHoldingReceiver(HELD_AFTER)
  const env = {
    ...database.env,
    SMTP_URL: receiver.url,
    MAIL_FROM: 'Dispatch Portal <portal@example.test>',
    PUBLIC_URL: 'http://portal.example.test',
  }
  let server: ServerProcess | null = null
  try {
    server = await startServer(env)
    // The worker polls every 15 s; it sends HELD_AFTER mails, then waits on the held one's reply.
    expect(await eventually(async () => receiver.held.length === 1, 60_000, 50), server.output()).toBe(true)
    server.child.kill('SIGKILL')
    expect(await server.exited).toBe('SIGKILL')
    server = null
    expect(receiver.accepted).toHaveLength(HELD_AFTER)
    const heldKey = receiver.held[0]!

    // What the dead process left: the mails answered 250 are sent; the rest of its batch is
    // claimed, and only the held mail's handover had begun.
    const before = await database.use(outboxState)
    const claimedRows = before.filter((r) => r.status === 'sending')
    expect(countBy(before, (r) => r.status)).toEqual({
      sent: HELD_AFTER,
      sending: BATCH - (HELD_AFTER % BATCH),
      pending: MAILS - HELD_AFTER - (BATCH - (HELD_AFTER % BATCH)),
    })
    expect(claimedRows.filter((r) => r.handover).map((r) => messageIdOf(r.key))).toEqual([heldKey])
    expect(claimedRows.filter((r) => !r.handover).every((r) => r.attempts === 0)).toBe(true)

    // The dead process's 5-minute lease runs out: moved into the past rather than waited for.
    await database.use((db) =>
      db.execute(sql`update mail_outbox set locked_until = now() - interval '1 second' where status = 'sending'`),
    )
    receiver.release()
    server = await startServer(env)
    expect(
      await eventually(async () => receiver.accepted.length >= MAILS - 1, 150_000, 200),
      `${receiver.accepted.length} accepted\n${server.output()}`,
    ).toBe(true)
    expect(await server.stop(10_000)).toBe(0)
    server = null

    // Every mail not handed over arrived exactly once; the held one never arrived, not even again.
    const expected = Array.from({ length: MAILS }, (_, i) => messageIdOf(KEY(i))).filter((id) => id !== heldKey)
    expect([...receiver.accepted].sort()).toEqual(expected.sort())
    expect(receiver.held).toEqual([heldKey])
    const after = await database.use(outboxState)
    expect(countBy(after, (r) => r.status)).toEqual({ sent: MAILS - 1, uncertain: 1 })
    const uncertain = after.find((r) => r.status === 'uncertain')!
    expect(messageIdOf(uncertain.key)).toBe(heldKey)
    expect(uncertain.last_error).toBe(UNCERTAIN_MESSAGE)
    // Each mail counted one attempt: none was tried twice.
    expect(after.every((r) => r.attempts === 1)).toBe(true)
  } finally {
    if (server) await server.stop(5_000)
    await receiver.close()
  }
}
