import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { createTestDatabase } from '../../test/test-database'
import type { MailTransport, OutgoingMail } from './mail-transport'
import { createOutboxRepository, UNCERTAIN_MESSAGE } from './outbox.repository'
import { createOutboxWorker } from './outbox.worker'

/**
 * A process that stops mid-batch leaves its claimed mails `sending`. Once their lease has run
 * out, only the mail whose handover to the SMTP server had begun is in doubt (`uncertain`, never
 * resent); every other claimed mail was never tried and is sent, once. The clock is the worker's
 * `now`, so the lease runs out without a wait. Runs on PGlite and PostgreSQL.
 */
let database: Database
const silent = { info() {}, warn() {}, error() {} }
const T0 = new Date('2030-03-01T10:00:00.000Z')
const LEASE_MS = 60_000
const at = (ms: number) => new Date(T0.getTime() + ms)
let delivered: string[] = []

const transport: MailTransport = {
  async send(mail: OutgoingMail) {
    delivered.push(mail.to)
  },
  close() {},
}
const worker = (clock: Date) =>
  createOutboxWorker({
    outbox: createOutboxRepository(database.db),
    transport,
    log: silent,
    now: () => clock,
    leaseMs: LEASE_MS,
    domain: 'example.test',
  })

type Row = { to_address: string; status: string; attempts: number; last_error: string | null }
const outboxRows = async () =>
  (
    (await database.db.execute(
      sql`select to_address, status, attempts, last_error from mail_outbox order by id`,
    )) as unknown as { rows: Row[] }
  ).rows

async function queue(n: number) {
  await createOutboxRepository(database.db).enqueue(
    Array.from({ length: n }, (_, i) => ({
      idempotencyKey: `alert:recovery-${i}:user`,
      kind: 'alert' as const,
      userId: null,
      to: `r${i}@example.test`,
      subject: `Mail ${i}`,
      text: 'T',
      html: 'T',
    })),
  )
  await database.db.execute(sql`update mail_outbox set next_attempt_at = ${T0.toISOString()}::timestamptz`)
}

beforeAll(async () => {
  database = await createTestDatabase()
})
afterAll(async () => {
  await database?.close()
})
beforeEach(async () => {
  await database.db.execute(sql`delete from mail_outbox`)
  delivered = []
})

describe('outbox recovery after a process stopped mid-batch', () => {
  it('sends again every claimed mail whose handover never began; only the one handed over is uncertain', async () => {
    await queue(5)
    // The process that died: it claimed all five, began handing over the third, and stopped.
    const claimed = await createOutboxRepository(database.db).claim({ now: T0, limit: 5, leaseMs: LEASE_MS })
    expect(claimed.map((m) => m.to)).toEqual([0, 1, 2, 3, 4].map((i) => `r${i}@example.test`))
    expect(await createOutboxRepository(database.db).startHandover(claimed[2]!, at(1_000), LEASE_MS)).toBe(1)

    // Within the lease nothing is touched: the claim may still belong to a live process.
    expect(await worker(at(LEASE_MS - 1)).runOnce()).toBe(0)
    expect(delivered).toEqual([])
    expect((await outboxRows()).map((r) => r.status)).toEqual(['sending', 'sending', 'sending', 'sending', 'sending'])

    // Past the lease: the four never tried are sent, once; the one handed over is not.
    expect(await worker(at(LEASE_MS + 1_001)).runOnce()).toBe(4)
    expect(delivered.sort()).toEqual(['r0@example.test', 'r1@example.test', 'r3@example.test', 'r4@example.test'])
    expect(await outboxRows()).toEqual([
      { to_address: 'r0@example.test', status: 'sent', attempts: 1, last_error: null },
      { to_address: 'r1@example.test', status: 'sent', attempts: 1, last_error: null },
      { to_address: 'r2@example.test', status: 'uncertain', attempts: 1, last_error: UNCERTAIN_MESSAGE },
      { to_address: 'r3@example.test', status: 'sent', attempts: 1, last_error: null },
      { to_address: 'r4@example.test', status: 'sent', attempts: 1, last_error: null },
    ])
    expect(await worker(at(10 * LEASE_MS)).runOnce()).toBe(0)
    expect(delivered).toHaveLength(4)
  })

  it('a handover gets a whole lease of its own: a live send late in a long batch is not declared uncertain', async () => {
    await queue(2)
    const claimed = await createOutboxRepository(database.db).claim({ now: T0, limit: 2, leaseMs: LEASE_MS })
    // The batch's first mail took most of the lease; the second's handover begins just before it ends.
    expect(await createOutboxRepository(database.db).startHandover(claimed[0]!, at(1_000), LEASE_MS)).toBe(1)
    await createOutboxRepository(database.db).markSent(claimed[0]!, at(LEASE_MS - 2_000))
    expect(await createOutboxRepository(database.db).startHandover(claimed[1]!, at(LEASE_MS - 1_000), LEASE_MS)).toBe(1)

    // Another process passing after the claim's lease, inside the handover's: the row is left alone.
    expect(await worker(at(LEASE_MS + 1_000)).runOnce()).toBe(0)
    expect((await outboxRows()).map((r) => r.status)).toEqual(['sent', 'sending'])
    await createOutboxRepository(database.db).markSent(claimed[1]!, at(LEASE_MS + 2_000))
    expect((await outboxRows()).map((r) => r.status)).toEqual(['sent', 'sent'])
    expect(delivered).toEqual([])
  })

  it('a claim taken back after its lease ran out cannot begin a handover: the mail is sent once, by the new claim', async () => {
    await queue(1)
    const [stale] = await createOutboxRepository(database.db).claim({ now: T0, limit: 1, leaseMs: LEASE_MS })
    // The first process stalled past its lease; another took the row back and sent it.
    expect(await worker(at(LEASE_MS + 1)).runOnce()).toBe(1)
    // The stalled process wakes up: its claim is no longer its own, so it sends nothing.
    expect(await createOutboxRepository(database.db).startHandover(stale!, at(LEASE_MS + 2), LEASE_MS)).toBeNull()
    expect(delivered).toEqual(['r0@example.test'])
    expect(await outboxRows()).toEqual([
      { to_address: 'r0@example.test', status: 'sent', attempts: 1, last_error: null },
    ])
  })

  it('a claim abandoned twice is still counted only by the attempts actually made', async () => {
    await queue(1)
    for (const start of [0, 2 * LEASE_MS]) {
      expect(
        await createOutboxRepository(database.db).claim({ now: at(start), limit: 1, leaseMs: LEASE_MS }),
      ).toHaveLength(1)
      // Past the lease, the next pass takes it back; no handover began, so no attempt was made.
      await createOutboxRepository(database.db).sweep(at(start + LEASE_MS + 1))
      expect(await outboxRows()).toEqual([
        { to_address: 'r0@example.test', status: 'pending', attempts: 0, last_error: null },
      ])
    }
    expect(await worker(at(5 * LEASE_MS)).runOnce()).toBe(1)
    expect(await outboxRows()).toEqual([
      { to_address: 'r0@example.test', status: 'sent', attempts: 1, last_error: null },
    ])
  })
})
