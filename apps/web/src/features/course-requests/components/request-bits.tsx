import { isHttpUrl, type CourseRequestStatus } from '@portal/shared'
import { ExternalLink } from 'lucide-react'
import { Badge, type BadgeTone } from '@/components/ui/badge'
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
