import { newClaim, type ClaimRequest } from '../../db/claims'
import { sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/client'
import { mailAttachment, mailOutbox } from '../../db/schema'
import type { OutboxQuery, OutboxStatus } from '@portal/shared'
import { rowsOf } from '../../db/statement'

/** The durable outbox (SQL). The worker (outbox.worker.ts) decides what to do when. */

export interface NewMail {
  idempotencyKey: string
  kind: 'alert' | 'digest' | 'report' | 'security' | 'renewal'
  userId: string | null
  to: string
  subject: string
  text: string
  html: string
  attachments?: MailFile[]
}

export interface MailFile {
  filename: string
  contentType: string
  content: Buffer
}

export interface ClaimedMail {
  id: number
  idempotencyKey: string
  to: string
  subject: string
  text: string
  html: string
  /** Handovers before this claim's (startHandover counts that one). */
  attempts: number
  claimToken: string
  attachments: MailFile[]
}

const CHUNK = 500

export const UNCERTAIN_MESSAGE =
  'The server stopped while this mail was being handed to the SMTP server; it may have been delivered, so it is not sent again.'
export const SUSPENDED_MESSAGE = 'Not sent: the recipient is suspended.'

export function createOutboxRepository(db: Db) {
  return {
    /** Written in the caller's transaction; a key already queued is skipped (never two mails). */
    async enqueue(mails: NewMail[], tx: DbOrTx = db): Promise<number> {
      let queued = 0
      for (let i = 0; i < mails.length; i += CHUNK) {
        const chunk = mails.slice(i, i + CHUNK)
        const inserted = await tx
          .insert(mailOutbox)
          .values(
            chunk.map((m) => ({
              idempotencyKey: m.idempotencyKey,
              kind: m.kind,
              userId: m.userId,
              toAddress: m.to,
              subject: m.subject,
              textBody: m.text,
              htmlBody: m.html,
            })),
          )
          .onConflictDoNothing()
          .returning({ id: mailOutbox.id, key: mailOutbox.idempotencyKey })
        queued += inserted.length
        const byKey = new Map(inserted.map((r) => [r.key, r.id]))
        const files = chunk.flatMap((m) =>
          byKey.has(m.idempotencyKey)
            ? (m.attachments ?? []).map((f) => ({ ...f, mailId: byKey.get(m.idempotencyKey)! }))
            : [],
        )
        if (files.length > 0) await tx.insert(mailAttachment).values(files)
      }
      return queued
    },

    /**
     * Before a claim: a mail left `sending` past its lease belongs to a process that stopped (or
     * lost its database) mid-batch. One whose handover had begun may have reached the SMTP server,
     * so it becomes `uncertain` and is never resent (a mail is never sent twice; docs/decisions.md).
     * One whose handover never began was never tried: it goes back to `pending` and is sent again.
     * One statement decides each row, so a handover that commits during the sweep is seen either
     * before (uncertain) or after (the row is left for the next sweep), never half. Pending mails
     * of suspended users fail.
     */
    async sweep(now: Date, tx: DbOrTx = db): Promise<void> {
      await tx.execute(sql`
      update mail_outbox set
        status = case when handover_started_at is null then 'pending' else 'uncertain' end,
        last_error = case when handover_started_at is null then last_error else ${UNCERTAIN_MESSAGE} end,
        claim_token = case when handover_started_at is null then null else claim_token end,
        locked_until = null
      where status = 'sending' and locked_until < ${now.toISOString()}::timestamptz`)
      await tx.execute(sql`
      update mail_outbox m set status = 'failed', last_error = ${SUSPENDED_MESSAGE}
      from app_user u
      where m.status = 'pending' and m.user_id = u.id and u.status = 'suspended'`)
    },

    /**
     * Claims due mails for this worker: FOR UPDATE SKIP LOCKED, so workers of several processes
     * take different rows; the claim commits before any send (status `sending`, a lease and a
     * token), and only the token's holder can mark the row afterwards. Nothing is tried yet: the
     * attempt is counted when its handover starts (startHandover). `now` is a JavaScript time,
     * whole milliseconds, and stands for its whole millisecond: a mail queued at PostgreSQL's
     * now() (microseconds) in the same millisecond is due.
     */
    async claim(request: ClaimRequest, tx: DbOrTx = db): Promise<ClaimedMail[]> {
      const { token, take, due } = newClaim(request)
      const rows = rowsOf(
        await tx.execute(sql`
      update mail_outbox m set ${take}, handover_started_at = null
      where m.id in (
        select id from mail_outbox
        where status = 'pending' and ${due(sql`next_attempt_at`)}
        order by next_attempt_at, id
        limit ${request.limit}
        for update skip locked)
      returning m.id::text, m.idempotency_key, m.to_address, m.subject, m.text_body, m.html_body, m.attempts`),
      )
      if (rows.length === 0) return []
      const ids = rows.map((r) => Number(r.id))
      const files = rowsOf(
        await tx.execute(sql`
      select mail_id::text, filename, content_type, encode(content, 'base64') as content
      from mail_attachment where mail_id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::bigint)
      order by mail_id, filename`),
      )
      return rows
        .map((r) => ({
          id: Number(r.id),
          idempotencyKey: String(r.idempotency_key),
          to: String(r.to_address),
          subject: String(r.subject),
          text: String(r.text_body),
          html: String(r.html_body),
          attempts: Number(r.attempts),
          claimToken: token,
          attachments: files
            .filter((f) => Number(f.mail_id) === Number(r.id))
            .map((f) => ({
              filename: String(f.filename),
              contentType: String(f.content_type),
              content: Buffer.from(String(f.content), 'base64'),
            })),
        }))
        .sort((a, b) => a.id - b.id)
    },

    /**
     * Just before the SMTP transaction, in its own committed statement: from here on the mail may
     * reach the SMTP server, so a crash leaves it `uncertain` instead of sending it again. Counts
     * the attempt and gives this mail a whole lease of its own. Null when the claim is no longer
     * this worker's (its lease ran out and another pass took the row back): then nothing is sent.
     */
    async startHandover(mail: ClaimedMail, now: Date, leaseMs: number, tx: DbOrTx = db): Promise<number | null> {
      const lease = new Date(now.getTime() + leaseMs)
      const [row] = rowsOf(
        await tx.execute(sql`
      update mail_outbox set handover_started_at = ${now.toISOString()}::timestamptz, attempts = attempts + 1,
        locked_until = ${lease.toISOString()}::timestamptz
      where id = ${mail.id} and claim_token = ${mail.claimToken}::uuid and status = 'sending'
      returning attempts`),
      )
      return row ? Number(row.attempts) : null
    },

    async markSent(mail: ClaimedMail, now: Date, tx: DbOrTx = db): Promise<void> {
      await tx.execute(sql`
      update mail_outbox set status = 'sent', sent_at = ${now.toISOString()}::timestamptz, locked_until = null,
        last_error = null
      where id = ${mail.id} and claim_token = ${mail.claimToken}::uuid`)
    },

    /** Refused or unreachable: tried again at `retryAt`, or given up (`failed`) when null. */
    async markFailed(mail: ClaimedMail, error: string, retryAt: Date | null, tx: DbOrTx = db): Promise<void> {
      await tx.execute(sql`
      update mail_outbox set status = ${retryAt ? 'pending' : 'failed'}, last_error = ${error.slice(0, 1000)},
        locked_until = null, next_attempt_at = coalesce(${retryAt?.toISOString() ?? null}::timestamptz, next_attempt_at)
      where id = ${mail.id} and claim_token = ${mail.claimToken}::uuid and status in ('sending', 'uncertain')`)
    },

    async page(query: OutboxQuery, tx: DbOrTx = db) {
      const status = query.status ?? null
      const where = status ? sql`where m.status = ${status}` : sql``
      const total = rowsOf(await tx.execute(sql`select count(*)::int as n from mail_outbox m ${where}`))[0]
      const rows = rowsOf(
        await tx.execute(sql`
      select m.id::text, m.kind, m.to_address, m.subject, m.text_body, m.status, m.attempts, m.last_error,
        m.created_at, m.sent_at, m.next_attempt_at,
        coalesce((select json_agg(a.filename order by a.filename) from mail_attachment a where a.mail_id = m.id), '[]'::json) as files
      from mail_outbox m ${where}
      order by m.id desc
      limit ${query.limit} offset ${(query.page - 1) * query.limit}`),
      )
      return {
        totalItems: Number(total?.n ?? 0),
        items: rows.map((r) => ({
          id: Number(r.id),
          kind: String(r.kind),
          to: String(r.to_address),
          subject: String(r.subject),
          textBody: String(r.text_body),
          status: r.status as OutboxStatus,
          attempts: Number(r.attempts),
          lastError: r.last_error == null ? null : String(r.last_error),
          attachments: (typeof r.files === 'string' ? JSON.parse(r.files) : r.files) as string[],
          createdAt: new Date(r.created_at as string).toISOString(),
          sentAt: r.sent_at ? new Date(r.sent_at as string).toISOString() : null,
          nextAttemptAt: r.status === 'pending' ? new Date(r.next_attempt_at as string).toISOString() : null,
        })),
      }
    },
  }
}
export type OutboxRepository = ReturnType<typeof createOutboxRepository>
