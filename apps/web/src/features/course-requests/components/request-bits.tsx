import { isHttpUrl, type CourseRequest, type CourseRequestStatus } from '@portal/shared'
import { ExternalLink } from 'lucide-react'
import type { ReactNode } from 'react'
import { Badge, type BadgeTone } from '@/components/ui/badge'
import { Card, CardList } from '@/components/ui/card-list'
import { STATUS_LABELS } from '../types'

const TONES: Record<CourseRequestStatus, BadgeTone> = { PENDING: 'yellow', PROCESSED: 'blue', COMPLETED: 'green' }

export function RequestStatusBadge({ status }: { status: CourseRequestStatus }) {
  return <Badge tone={TONES[status] ?? 'neutral'}>{STATUS_LABELS[status] ?? status}</Badge>
}

/** docs/product-rules.md §2 Demo column: a View Demo link, or the screen's "no demo" text. */
export function DemoCell({ url, courseTitle, none }: { url: string | null; courseTitle: string; none: string }) {
  if (!url || !isHttpUrl(url)) return <span className="text-slate-500">{none}</span>
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={`View Demo: ${courseTitle}`}
      className="inline-flex items-center gap-1 font-medium whitespace-nowrap text-blue-700 hover:underline"
    >
      View Demo
      <ExternalLink aria-hidden="true" className="size-3.5" />
    </a>
  )
}

/**
 * Requests as cards on small screens: each its course and status, then the screen's `facts` (Fact
 * rows) and what follows them. `heading` keeps the screen's outline (h2 under the page title, h3
 * under a section's).
 */
export function RequestCards({
  label,
  requests,
  heading: Heading,
  facts,
  children,
}: {
  label: string
  requests: CourseRequest[]
  heading: 'h2' | 'h3'
  facts: (request: CourseRequest) => ReactNode
  children: (request: CourseRequest) => ReactNode
}) {
  return (
    <CardList label={label} items={requests}>
      {(request) => (
        <Card key={request.id}>
          <div className="flex items-start justify-between gap-2">
            <Heading className="font-medium text-slate-900">{request.courseTitle}</Heading>
            <RequestStatusBadge status={request.status} />
          </div>
          <dl className="mt-2 grid grid-cols-2 gap-2 text-sm">{facts(request)}</dl>
          {children(request)}
        </Card>
      )}
    </CardList>
  )
}

/** A fact of a request card; `plain` leaves the value's colour to what it shows. */
export function Fact({ label, plain = false, children }: { label: string; plain?: boolean; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-600">{label}</dt>
      <dd className={plain ? undefined : 'text-slate-900'}>{children}</dd>
    </>
  )
}
