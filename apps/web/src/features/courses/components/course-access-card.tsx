import type { CourseAccess } from '@portal/shared'
import { Badge } from '@/components/ui/badge'
import { CardSection } from '@/components/ui/card-section'

/** docs/product-rules.md §2 "Your Access" for a client with dispatches of the course. */
export function CourseAccessCard({ access }: { access: CourseAccess }) {
  return (
    <CardSection id="your-access" title="Your Access">
      <dl className="mt-3 space-y-2 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-slate-600">Your Registrations</dt>
          <dd className="font-medium text-slate-900 tabular-nums">{access.registrations.toLocaleString('en-US')}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-slate-600">Access Status</dt>
          <dd>
            <Badge tone={access.status === 'Active' ? 'green' : 'neutral'}>{access.status}</Badge>
          </dd>
        </div>
      </dl>
    </CardSection>
  )
}
