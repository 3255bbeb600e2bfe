import Bowser from 'bowser'
import type { DbOrTx } from '../../db/client'
import type { MailOutbox } from '../mail/mail.parts'
import type { ClientInfo } from '../auth/auth.service'
import { renderSecurityMail, type SecurityNotice } from './mfa.mails'
import type { MfaRepository } from './mfa.repository'

/** "Chrome" and "Linux" from a user agent, as the sessions list and the mails name them. */
export function describeAgent(userAgent: string | null): { browser: string; system: string } {
  const parsed = userAgent ? Bowser.parse(userAgent) : null
  const major = parsed?.browser.version?.split('.')[0]
  return {
    browser: parsed?.browser.name ? `${parsed.browser.name}${major ? ` ${major}` : ''}` : 'Unknown browser',
    system: parsed?.os.name
      ? `${parsed.os.name}${parsed.os.versionName ? ` ${parsed.os.versionName}` : ''}`
      : 'Unknown system',
  }
}
/** A browser counts as seen when its name and system match an earlier session's (versions change). */
const agentKey = (userAgent: string | null) => {
  const parsed = userAgent ? Bowser.parse(userAgent) : null
  return `${parsed?.browser.name ?? ''}|${parsed?.os.name ?? ''}`
}

/**
 * Security notices through the mail outbox, written in the transaction of the change they
 * report. Built from the repository and the outbox alone, so the auth service (made before
 * this module's service) can call `onSessionIssued`.
 */
export function createSecurityNotices(deps: { repository: MfaRepository; outbox: MailOutbox; publicUrl: string }) {
  async function notify(tx: DbOrTx, user: { id: string; email: string }, notice: SecurityNotice, key: string) {
    const mail = renderSecurityMail(notice, deps.publicUrl)
    await deps.outbox.enqueue([{ idempotencyKey: key, kind: 'security', userId: user.id, to: user.email, ...mail }], tx)
  }

  return {
    notify,
    /**
     * In every new session's transaction: a sign-in from a browser and system the user has not
     * signed in with before is mailed to them (not the very first sign-in of an account).
     */
    async onSessionIssued(user: { id: string; email: string }, sessionId: string, client: ClientInfo, tx: DbOrTx) {
      const earlier = await deps.repository.earlierUserAgents(user.id, sessionId, tx)
      if (earlier.length === 0) return
      const key = agentKey(client.userAgent)
      if (earlier.some((ua) => agentKey(ua) === key)) return
      await notify(
        tx,
        user,
        { kind: 'new-sign-in', ...describeAgent(client.userAgent), ip: client.ip, at: new Date() },
        `signin:${sessionId}`,
      )
    },
  }
}
export type SecurityNotices = ReturnType<typeof createSecurityNotices>
