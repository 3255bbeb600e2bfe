import {
  formatDateTime,
  historyExportBaseName,
  historyKindLabel,
  historyValueText,
  UPSTREAM_SOURCE_TEXT,
  type Dispatch,
  type DispatchHistoryEntry,
} from '@portal/shared'
import { History } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { CardSection } from '@/components/ui/card-section'
import { ErrorState } from '@/components/ui/error-state'
import { ExportMenu } from '@/components/ui/export-menu'
import { Spinner } from '@/components/ui/spinner'
import { dateToDay } from '@/lib/calendar-day'
import { errorMessage } from '@/lib/api-error'
import { useDispatchHistory } from '../api/get-dispatch-history'

export const HISTORY_TITLE = 'Licence history'
export const SHOW_OLDER = 'Show older changes'

/** "Licence cap changed: 10 → 35"; a creation names the initial cap. */
export function historyHeadline(entry: DispatchHistoryEntry): string {
  const label = historyKindLabel(entry.kind)
  if (entry.kind === 'created') return `${label} (cap ${historyValueText('cap', String(entry.capAfter))})`
  return `${label}: ${historyValueText(entry.kind, entry.oldValue)} → ${historyValueText(entry.kind, entry.newValue)}`
}

const registrationsText = (entry: DispatchHistoryEntry) =>
  entry.countBefore === null || entry.countBefore === entry.countAfter
    ? `Registrations: ${entry.countAfter}`
    : `Registrations: ${entry.countBefore} → ${entry.countAfter}`

const byText = (entry: DispatchHistoryEntry) =>
  entry.source === 'upstream'
    ? UPSTREAM_SOURCE_TEXT
    : `By ${entry.actor.label}${entry.actor.email && entry.actor.email !== entry.actor.label ? ` (${entry.actor.email})` : ''}`

/**
 * The dispatch's licence changes, newest first, as an ordered list (each entry a time, what
 * changed, the registrations before and after, and who: a portal user or key, or the sync).
 * Ten at a time; "Show older changes" reads the next ten below and keeps focus in the list.
 */
export function LicenceHistory({ dispatch }: { dispatch: Dispatch }) {
  const { data, error, isPending, isFetching, refetch, fetchNextPage, hasNextPage, isFetchingNextPage } =
    useDispatchHistory(dispatch.id)
  const entries = data?.pages.flatMap((p) => p.entries) ?? []
  const fileName = historyExportBaseName(dispatch.destinationName, dispatch.courseTitle, dateToDay(new Date()))

  return (
    <CardSection id="licence-history-heading" title={HISTORY_TITLE} className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600">
          Changes of cap, expiry and enabled state, and counter resets, whether made here or found upstream.
        </p>
        <ExportMenu
          path={`/api/dispatches/${encodeURIComponent(dispatch.id)}/history/export`}
          params={{}}
          fileName={fileName}
          label="Export history"
        />
      </div>
      {isPending ? (
        <Spinner label="Loading licence history..." className="py-6" />
      ) : error && entries.length === 0 ? (
        <ErrorState
          message={`Error fetching licence history: ${errorMessage(error, String(error))}`}
          onRefresh={() => void refetch()}
          refreshing={isFetching}
        />
      ) : entries.length === 0 ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <History aria-hidden="true" className="size-4" /> No licence changes recorded yet.
        </p>
      ) : (
        <>
          <ol aria-label="Licence changes, newest first" className="space-y-3 border-l-2 border-slate-200 pl-4">
            {entries.map((entry) => (
              <li key={entry.id} className="relative">
                <span
                  aria-hidden="true"
                  className="absolute top-1.5 -left-[1.4rem] size-2.5 rounded-full bg-slate-400 ring-2 ring-white"
                />
                <p className="text-sm font-medium text-slate-900">{historyHeadline(entry)}</p>
                <p className="text-xs text-slate-600">
                  <time dateTime={entry.occurredAt}>{formatDateTime(entry.occurredAt)}</time> · {byText(entry)} ·{' '}
                  {registrationsText(entry)}
                </p>
              </li>
            ))}
          </ol>
          {hasNextPage && (
            <Button variant="secondary" size="sm" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
              {isFetchingNextPage ? 'Loading...' : SHOW_OLDER}
            </Button>
          )}
        </>
      )}
    </CardSection>
  )
}
