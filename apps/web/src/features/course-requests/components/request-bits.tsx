import { isHttpUrl, type CourseRequest, type CourseRequestStatus } from '@portal/shared'
import { ExternalLink } from 'lucide-react'
import type { ReactNode } from 'react'
import { Badge, type BadgeTone } from '@/components/ui/badge'
import { Card } from '@/components/ui/card-list'
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
 * A request as a card on small screens: its course and status, then the screen's facts (`dl`
 * rows) and what follows them. `Heading` keeps the screen's outline (h2 under the page title,
 * h3 under a section's).
 */
export function RequestCard({
  request,
  heading: Heading,
  facts,
  children,
}: {
  request: CourseRequest
  heading: 'h2' | 'h3'
  facts: ReactNode
  children: ReactNode
}) {
  return (
    <Card>
      <div className="flex items-start justify-between gap-2">
        <Heading className="font-medium text-slate-900">{request.courseTitle}</Heading>
        <RequestStatusBadge status={request.status} />
      </div>
      <dl className="mt-2 grid grid-cols-2 gap-2 text-sm">{facts}</dl>
      {children}
    </Card>
  )
}
