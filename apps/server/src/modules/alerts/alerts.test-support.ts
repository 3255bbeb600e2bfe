import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { eq, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { dispatch } from '../../db/schema'

/** A real SMTP receiver for the tests (smtp-server), on loopback, without TLS or auth. */
export interface SmtpReceiver {
  url: string
  received: { to: string[]; raw: string }[]
  /** The next n DATA commands are answered with this reply (e.g. 451 then accepted). */
  refuseNext(n: number, code?: number): void
  close(): Promise<void>
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const received: SmtpReceiver['received'] = []
  let refusals = 0
  let refusalCode = 451
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        if (refusals > 0) {
          refusals -= 1
          const error = new Error('Try again later') as Error & { responseCode: number }
          error.responseCode = refusalCode
          return callback(error)
        }
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuseNext(n, code = 451) {
      refusals = n
      refusalCode = code
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export async function setDispatch(db: Db, id: string, values: Partial<typeof dispatch.$inferInsert>) {
  await db.update(dispatch).set(values).where(eq(dispatch.id, id))
}

type Row = Record<string, unknown>
export const rows = async (db: Db, query: SQL) => ((await db.execute(query)) as unknown as { rows: Row[] }).rows

/** Decoded text of a raw mail (quoted-printable soft breaks joined), enough to look for a link. */
export const mailText = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')
