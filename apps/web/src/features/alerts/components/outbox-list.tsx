import { OUTBOX_STATUSES, type OutboxMail, type OutboxStatus } from '@portal/shared'
import { format } from 'date-fns'
import { useState } from 'react'
import { Badge, type BadgeTone } from '@/components/ui/badge'
import { Banner } from '@/components/ui/banner'
import { Pagination } from '@/components/ui/pagination'
import { Select } from '@/components/ui/select'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-error'
import { useOutbox } from '../api/alerts-api'

const TONES: Record<OutboxStatus, BadgeTone> = {
  pending: 'yellow',
  sending: 'blue',
  sent: 'green',
  failed: 'red',
  uncertain: 'red',
}
const when = (iso: string | null) => (iso ? format(new Date(iso), 'yyyy-MM-dd HH:mm') : '-')

export const NO_MAIL_SERVER = 'None: no mail server is configured'

/**
 * When an unsent mail is tried next. Without SMTP_URL nothing is sent, so no time is shown; a
 * failed mail is not retried and an uncertain one is never resent (it may have gone out).
 */
function nextAttempt(mail: OutboxMail, smtpConfigured: boolean): string {
  if (mail.status === 'failed') return 'None: it failed for good'
  if (mail.status === 'uncertain') return 'None: it may have been sent, so it is not resent'
  if (!smtpConfigured) return NO_MAIL_SERVER
  return when(mail.nextAttemptAt)
}

/**
 * /admin/outbox. Each mail's recipient, subject, status and attempts, and its body
 * as plain text (never rendered as HTML).
 */
export function OutboxList() {
  const [page, setPage] = useState(1)
  const [status, setStatus] = useState<OutboxStatus | ''>('')
  const { data, error, isPending } = useOutbox(page, status)

  return (
    <div className="space-y-4">
      {data && !data.smtpConfigured && (
        <Banner variant="info">No SMTP server is configured (SMTP_URL), so mails stay here and nothing is sent.</Banner>
      )}
      <div className="max-w-xs">
        <Select
          label="Status"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as OutboxStatus | '')
            setPage(1)
          }}
          options={[
            { value: '', label: 'All' },
            ...OUTBOX_STATUSES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) })),
          ]}
        />
      </div>
      {isPending ? (
        <Spinner label="Loading outbox..." />
      ) : error || !data ? (
        <Banner variant="error">{errorMessage(error, 'Failed to load the outbox')}</Banner>
      ) : data.items.length === 0 ? (
        <p className="text-sm text-slate-600">No mails in the outbox.</p>
      ) : (
        <>
          <p className="text-sm text-slate-600">Total: {data.totalItems} mails</p>
          <ul aria-label="Mails" className="space-y-3">
            {data.items.map((mail) => (
              <li key={mail.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-xs">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge tone={TONES[mail.status]}>{mail.status}</Badge>
                  <span className="text-sm font-medium text-slate-900">{mail.subject}</span>
                </div>
                <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
                  <div className="flex gap-2">
                    <dt className="text-slate-600">To:</dt>
                    <dd className="text-slate-900">{mail.to}</dd>
                  </div>
                  <div className="flex gap-2">
                    <dt className="text-slate-600">Attempts:</dt>
                    <dd className="text-slate-900">{mail.attempts}</dd>
                  </div>
                  <div className="flex gap-2">
                    <dt className="text-slate-600">Queued:</dt>
                    <dd className="text-slate-900">{when(mail.createdAt)}</dd>
                  </div>
                  <div className="flex gap-2">
                    <dt className="text-slate-600">{mail.sentAt ? 'Sent:' : 'Next attempt:'}</dt>
                    <dd className="text-slate-900">
                      {mail.sentAt ? when(mail.sentAt) : nextAttempt(mail, data.smtpConfigured)}
                    </dd>
                  </div>
                  {mail.attachments.length > 0 && (
                    <div className="flex gap-2">
                      <dt className="text-slate-600">Attachments:</dt>
                      <dd className="text-slate-900">{mail.attachments.join(', ')}</dd>
                    </div>
                  )}
                </dl>
                {mail.lastError && <p className="mt-2 text-sm text-red-800">Last error: {mail.lastError}</p>}
                <details className="mt-2">
                  <summary className="cursor-pointer text-sm font-medium text-blue-700">Show body</summary>
                  <pre className="mt-2 overflow-x-auto rounded bg-slate-50 p-3 text-xs whitespace-pre-wrap text-slate-800">
                    {mail.textBody}
                  </pre>
                </details>
              </li>
            ))}
          </ul>
          <Pagination page={page} totalPages={data.totalPages} onPageChange={setPage} label="Outbox pages" />
        </>
      )}
    </div>
  )
}
