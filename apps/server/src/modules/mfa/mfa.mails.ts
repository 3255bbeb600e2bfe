import { escapeHtml, portalLink, type RenderedMail } from '../mail/mail-render'

/**
 * Security notices to the account's owner: a sign-in from a browser not seen before, a factor
 * added or removed (also by an admin), a recovery code used. Plain facts and a link to Profile,
 * where sessions can be ended and factors removed; never a code, key or token.
 */
export type SecurityNotice =
  | { kind: 'new-sign-in'; browser: string; system: string; ip: string; at: Date }
  | { kind: 'factor-added'; factor: string; at: Date }
  | { kind: 'factor-removed'; factor: string; byAdmin: boolean; at: Date }
  | { kind: 'factors-reset'; at: Date }
  | { kind: 'recovery-code-used'; left: number; ip: string; at: Date }

const FOOTER = 'You receive this security notice for every such change to your Dispatch Portal account.'
const NOT_YOU =
  'If this was not you, sign in, end the sessions you do not recognise on your Profile page and change your password.'

function facts(notice: SecurityNotice): { subject: string; lines: string[] } {
  const when = `${notice.at.toISOString().replace('T', ' ').slice(0, 16)} UTC`
  switch (notice.kind) {
    case 'new-sign-in':
      return {
        subject: 'New sign-in to your Dispatch Portal account',
        lines: [
          `Your account was signed in from ${notice.browser} on ${notice.system}, a browser not seen before.`,
          `When: ${when}. IP address: ${notice.ip}.`,
          NOT_YOU,
        ],
      }
    case 'factor-added':
      return {
        subject: 'A second factor was added to your account',
        lines: [`${notice.factor} was added as a second factor at ${when}.`, NOT_YOU],
      }
    case 'factor-removed':
      return {
        subject: 'A second factor was removed from your account',
        lines: [
          `${notice.factor} was removed${notice.byAdmin ? ' by an administrator' : ''} at ${when}.`,
          notice.byAdmin ? 'Add a new factor on your Profile page.' : NOT_YOU,
        ],
      }
    case 'factors-reset':
      return {
        subject: 'Your second factors were reset',
        lines: [
          `An administrator removed every second factor and recovery code of your account at ${when}.`,
          'Add a new factor on your Profile page; if the account requires one, you are asked at your next sign-in.',
        ],
      }
    case 'recovery-code-used':
      return {
        subject: 'A recovery code was used to sign in',
        lines: [
          `A recovery code was used to sign in to your account at ${when} from IP address ${notice.ip}.`,
          `Recovery codes left: ${notice.left}. You can make new ones on your Profile page.`,
          NOT_YOU,
        ],
      }
  }
}

export function renderSecurityMail(notice: SecurityNotice, publicUrl: string): RenderedMail {
  const { subject, lines } = facts(notice)
  const link = portalLink(publicUrl, '/profile')
  const text = [...lines, '', `Your Profile: ${link}`, '', FOOTER].join('\n')
  const html = [
    '<!doctype html><html><body style="font-family:Arial,sans-serif;color:#111827;font-size:14px">',
    `<h1 style="font-size:18px">${escapeHtml(subject)}</h1>`,
    ...lines.map((line) => `<p style="margin:0 0 12px">${escapeHtml(line)}</p>`),
    `<p style="margin:16px 0"><a href="${escapeHtml(link)}" style="color:#1d4ed8">Open your Profile</a></p>`,
    `<p style="color:#6b7280;font-size:12px">${escapeHtml(FOOTER)}</p>`,
    '</body></html>',
  ].join('')
  return { subject, text, html }
}
