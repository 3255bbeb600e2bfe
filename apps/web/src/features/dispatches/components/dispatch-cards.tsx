import { formatRegistrations, type Dispatch } from '@portal/shared'
import type { RowBadges } from '../types'
import type { RowSelection } from './dispatch-table'
import { DispatchStatusBadge } from './dispatch-status-badge'
import { DispatchRowActions, SelectDispatchBox, SelectPageBox } from './dispatch-row-actions'
import { clientName, courseName } from './view-details-link'

/** docs/product-rules.md §2: below 1024 px the list shows cards. */
export function DispatchCards({
  dispatches,
  showClient,
  rowBadges,
  selection,
}: {
  dispatches: Dispatch[]
  showClient: boolean
  rowBadges?: RowBadges
  /** Staff bulk actions: a checkbox per card and one for the page, as the table has. */
  selection?: RowSelection
}) {
  const pageIds = dispatches.map((d) => d.id)
  return (
    <div className="space-y-3">
      {selection && <SelectPageBox pageIds={pageIds} selection={selection} visibleLabel />}
      <ul aria-label="Dispatches" className="grid gap-4 sm:grid-cols-2">
        {dispatches.map((dispatch) => (
          <li key={dispatch.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-xs">
            <div className="flex items-start justify-between gap-2">
              <div className="flex items-start gap-2">
                {selection && (
                  <SelectDispatchBox
                    dispatch={dispatch}
                    showClient={showClient}
                    selection={selection}
                    className="mt-1 size-4 shrink-0"
                  />
                )}
                <h3 className="font-medium text-slate-900">
                  {courseName(dispatch)}
                  {rowBadges?.(dispatch.id, pageIds)}
                </h3>
              </div>
              <DispatchStatusBadge enabled={dispatch.enabled} />
            </div>
            <dl className="mt-3 space-y-1 text-sm">
              {showClient && (
                <div className="flex gap-2">
                  <dt className="text-slate-600">Client:</dt>
                  <dd className="text-slate-900">{clientName(dispatch)}</dd>
                </div>
              )}
              <div className="flex gap-2">
                <dt className="text-slate-600">Registrations:</dt>
                <dd className="text-slate-900 tabular-nums">
                  {formatRegistrations(dispatch.registrationCount, dispatch.registrationCap)}
                </dd>
              </div>
            </dl>
            <DispatchRowActions dispatch={dispatch} showClient={showClient} layout="card" />
          </li>
        ))}
      </ul>
    </div>
  )
}
