import { alertMessage } from '@portal/shared'

/**
 * Mail bodies in plain text and HTML. Every value from the mirror or a user (course
 * titles, company names) is escaped in the HTML; links are built from PUBLIC_URL and ids only,
 * and no token, password or secret is ever put in a mail.
 */

export interface RenderedMail {
  subject: string
  text: string
  html: string
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!)

/** A subject is one line: control characters (header injection) become spaces. */
const oneLine = (value: string) =>
  [...value]
    .map((c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 ? ' ' : c))
    .join('')
    .replace(/ {2,}/g, ' ')
    .trim()
    .slice(0, 200)

export const portalLink = (publicUrl: string, path: string) =>
  `${publicUrl.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`

const dispatchPath = (id: string) => `/dispatches/${encodeURIComponent(id)}`

function layout(title: string, paragraphs: string[], link: { href: string; label: string } | null, footer: string) {
  const body = paragraphs.map((p) => `<p style="margin:0 0 12px">${p}</p>`).join('')
  const button = link
    ? `<p style="margin:16px 0"><a href="${escapeHtml(link.href)}" style="color:#1d4ed8">${escapeHtml(link.label)}</a></p>`
    : ''
  return [
    '<!doctype html><html><body style="font-family:Arial,sans-serif;color:#111827;font-size:14px">',
    `<h1 style="font-size:18px">${escapeHtml(title)}</h1>`,
    body,
    button,
    `<p style="color:#6b7280;font-size:12px">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('')
}

const FOOTER =
  'You receive this because of your alert settings in the Dispatch Portal. Change them on your Profile page.'

/** An alert as the evaluation raised it (modules/alerts queues its mail): the alert mail's input. */
export interface RaisedAlert {
  id: number
  kind: 'usage' | 'expiry' | 'disabled' | 'removed'
  level: number
  dispatchId: string
  companyId: string
  companyName: string
  courseTitle: string
  registrationCount: number
  registrationCap: number
  expirationDate: Date | null
}

export function renderAlertMail(alert: RaisedAlert, publicUrl: string): RenderedMail {
  const message = alertMessage(alert)
  const link = portalLink(publicUrl, dispatchPath(alert.dispatchId))
  const facts: [string, string][] = [
    ['Company', alert.companyName],
    ['Course', alert.courseTitle],
    [
      'Registrations',
      alert.registrationCap > 0
        ? `${alert.registrationCount} of ${alert.registrationCap}`
        : `${alert.registrationCount} (no cap)`,
    ],
    ['Expiry date', alert.expirationDate ? alert.expirationDate.toISOString().slice(0, 10) : 'No expiry date'],
  ]
  const text = [
    message,
    '',
    ...facts.map(([k, v]) => `${k}: ${v}`),
    '',
    alert.kind === 'removed' ? `Portal: ${portalLink(publicUrl, '/dashboard')}` : `Open the dispatch: ${link}`,
    '',
    FOOTER,
  ].join('\n')
  const html = layout(
    message,
    facts.map(([k, v]) => `<strong>${escapeHtml(k)}:</strong> ${escapeHtml(v)}`),
    alert.kind === 'removed'
      ? { href: portalLink(publicUrl, '/dashboard'), label: 'Open the portal' }
      : { href: link, label: 'Open the dispatch' },
    FOOTER,
  )
  return { subject: oneLine(`[Dispatch Portal] ${message}`), text, html }
}

export interface DigestLine {
  message: string
  dispatchId: string
  createdAt: Date
}

export function renderDigestMail(lines: DigestLine[], publicUrl: string, period: string): RenderedMail {
  const title = `Your weekly alert digest (${period})`
  const text = [
    title,
    '',
    ...(lines.length === 0
      ? ['No alerts this week.']
      : lines.map(
          (l) =>
            `- ${l.createdAt.toISOString().slice(0, 10)} ${l.message} ${portalLink(publicUrl, dispatchPath(l.dispatchId))}`,
        )),
    '',
    `Portal: ${portalLink(publicUrl, '/dashboard')}`,
    '',
    FOOTER,
  ].join('\n')
  const items =
    lines.length === 0
      ? ['No alerts this week.']
      : lines.map(
          (l) =>
            `${escapeHtml(l.createdAt.toISOString().slice(0, 10))} <a href="${escapeHtml(portalLink(publicUrl, dispatchPath(l.dispatchId)))}">${escapeHtml(l.message)}</a>`,
        )
  const html = layout(title, items, { href: portalLink(publicUrl, '/dashboard'), label: 'Open the portal' }, FOOTER)
  return { subject: oneLine(`[Dispatch Portal] ${title}`), text, html }
}

export function renderReportMail(
  title: string,
  summary: string[],
  attachmentName: string,
  publicUrl: string,
): RenderedMail {
  const text = [
    title,
    '',
    ...summary,
    '',
    `The full report is attached (${attachmentName}).`,
    `Portal: ${portalLink(publicUrl, '/dashboard')}`,
    '',
    FOOTER,
  ].join('\n')
  const html = layout(
    title,
    [...summary.map(escapeHtml), `The full report is attached (${escapeHtml(attachmentName)}).`],
    { href: portalLink(publicUrl, '/dashboard'), label: 'Open the portal' },
    FOOTER,
  )
  return { subject: oneLine(`[Dispatch Portal] ${title}`), text, html }
}
