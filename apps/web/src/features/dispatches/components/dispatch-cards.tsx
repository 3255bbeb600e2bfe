import { formatRegistrations, type Dispatch } from '@portal/shared'
import type { RowBadges } from '../types'
import { DispatchStatusBadge } from './dispatch-status-badge'
import { DownloadPackageButton } from './download-package-button'
import { clientName, courseName, ViewDetailsLink } from './view-details-link'

/** docs/product-rules.md §2: below 1024 px the list shows cards. */
export function DispatchCards({
  dispatches,
  showClient,
  rowBadges,
}: {
  dispatches: Dispatch[]
  showClient: boolean
  rowBadges?: RowBadges
}) {
  const pageIds = dispatches.map((d) => d.id)
  return (
    <ul aria-label="Dispatches" className="grid gap-4 sm:grid-cols-2">
      {dispatches.map((dispatch) => (
        <li key={dispatch.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-xs">
          <div className="flex items-start justify-between gap-2">
            <h3 className="font-medium text-slate-900">
              {courseName(dispatch)}
              {rowBadges?.(dispatch.id, pageIds)}
            </h3>
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
          <div className="mt-4 flex flex-wrap items-start gap-2">
            <ViewDetailsLink dispatch={dispatch} showClient={showClient} />
            <DownloadPackageButton dispatch={dispatch} rowLabel />
          </div>
        </li>
      ))}
    </ul>
  )
}
