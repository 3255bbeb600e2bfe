import {
  can,
  formatDate,
  formatDateTime,
  formatRegistrations,
  isUnlimited,
  usagePercent,
  type Dispatch,
  type Role,
} from '@portal/shared'
import { Badge } from '@/components/ui/badge'
import { DispatchStatusBadge } from './dispatch-status-badge'
import { OverusedBadge, UsageBar } from '@/components/ui/usage-bar'
import { clientName, courseName } from './view-details-link'
import { StackedDetail } from '@/components/ui/detail-row'
import { CardSection } from '@/components/ui/card-section'

const muted = (text: string) => <span className="text-slate-500 italic">{text}</span>

/** docs/product-rules.md §2 "General Information" card of the dispatch details screen. */
export function GeneralInformationCard({ dispatch, role }: { dispatch: Dispatch; role: Role }) {
  const client = clientName(dispatch)
  const percent = isUnlimited(dispatch.registrationCap)
    ? null
    : usagePercent(dispatch.registrationCount, dispatch.registrationCap)
  const tags = dispatch.tags ?? []

  return (
    <CardSection
      id="general-information"
      title="General Information"
      headerClassName="flex flex-wrap items-center gap-3"
      aside={<DispatchStatusBadge enabled={dispatch.enabled} />}
    >
      <dl className="mt-6 grid gap-6 md:grid-cols-2">
        <StackedDetail label="Client">
          <span className="flex items-center gap-2">
            <span
              aria-hidden="true"
              className="flex size-8 items-center justify-center rounded-full bg-blue-100 font-semibold text-blue-800"
            >
              {client.charAt(0).toUpperCase()}
            </span>
            {client}
          </span>
        </StackedDetail>
        <StackedDetail label="Course">{courseName(dispatch)}</StackedDetail>
        <StackedDetail label="Registrations">
          <span className="flex flex-wrap items-center gap-2">
            <span className="tabular-nums">
              {formatRegistrations(dispatch.registrationCount, dispatch.registrationCap)}
            </span>{' '}
            <span className="text-slate-600">{percent === null ? 'Unlimited' : `${percent}%`}</span>{' '}
            <OverusedBadge percent={percent} />
          </span>
          {percent !== null && (
            <div className="mt-2 max-w-xs">
              <UsageBar percent={percent} label="Registrations used" />
            </div>
          )}
          {dispatch.registrationResetDate && (
            <p className="mt-1 text-xs text-slate-600">Counted since the last reset.</p>
          )}
        </StackedDetail>
        <StackedDetail label="SCORM Expiry Date">
          {dispatch.expirationDate ? formatDate(dispatch.expirationDate) : muted('No expiry date')}
        </StackedDetail>
        <StackedDetail label="Created">{formatDateTime(dispatch.created)}</StackedDetail>
        <StackedDetail label="Last Updated">{formatDateTime(dispatch.updated)}</StackedDetail>
        <StackedDetail label="Last reset">
          {dispatch.registrationResetDate ? formatDateTime(dispatch.registrationResetDate) : muted('Never')}
        </StackedDetail>
        {can(role, 'dispatch.readNotes') && (
          <>
            <StackedDetail label="Tags">
              {tags.length === 0 ? (
                muted('No tags')
              ) : (
                <span className="flex flex-wrap gap-1">
                  {tags.map((tag) => (
                    <Badge key={tag} tone="blue">
                      {tag}
                    </Badge>
                  ))}
                </span>
              )}
            </StackedDetail>
            <StackedDetail label="Notes">
              {dispatch.notes?.trim() ? (
                <span className="whitespace-pre-wrap">{dispatch.notes}</span>
              ) : (
                muted('No notes')
              )}
            </StackedDetail>
          </>
        )}
      </dl>
    </CardSection>
  )
}
