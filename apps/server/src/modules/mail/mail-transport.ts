import nodemailer from 'nodemailer'
import type { MailFile } from './outbox.repository'

/** What the outbox worker hands a mail to. Nodemailer over SMTP_URL in production. */
export interface OutgoingMail {
  to: string
  subject: string
  text: string
  html: string
  /** Derived from the outbox row's idempotency key: a receiver can tell a copy apart. */
  messageId: string
  attachments: MailFile[]
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>
  close(): void
}

/** An SMTP answer (a reply code): 4xx is temporary, 5xx permanent (RFC 5321). */
export class MailSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message)
  }
}

export function createSmtpTransport(smtpUrl: string, from: string): MailTransport {
  // Timeouts well inside the outbox lease (5 minutes): a send ends, one way or the other,
  // before another process could take the row for an abandoned one.
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  })
  return {
    async send(mail) {
      try {
        await transporter.sendMail({
          from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          attachments: mail.attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: a.content,
          })),
        })
      } catch (error) {
        const e = error as Error & { responseCode?: number; response?: string }
        const code = e.responseCode
        // Only the reply code and the server's words: never the URL (it may carry a password).
        const message = code ? `SMTP ${code}: ${e.response ?? e.message}` : `SMTP connection: ${e.message}`
        throw new MailSendError(message.replace(/smtps?:\/\/[^\s]+/gi, 'smtp://…'), code !== undefined && code >= 500)
      }
    },
    close: () => transporter.close(),
  }
}
