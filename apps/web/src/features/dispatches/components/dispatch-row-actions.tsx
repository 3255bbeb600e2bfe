import type { Dispatch } from '@portal/shared'
import { DownloadPackageButton } from './download-package-button'
import type { RowSelection } from './dispatch-table'
import { clientName, courseName, ViewDetailsLink } from './view-details-link'

const LAYOUTS = { card: 'mt-4 flex flex-wrap items-start gap-2', row: 'flex items-start gap-2 whitespace-nowrap' }

/** A dispatch's actions in a list, as a table row or a card shows them: View Details and the package download. */
export function DispatchRowActions({
  dispatch,
  showClient,
  layout,
}: {
  dispatch: Dispatch
  showClient: boolean
  layout: keyof typeof LAYOUTS
}) {
  return (
    <div className={LAYOUTS[layout]}>
      <ViewDetailsLink dispatch={dispatch} showClient={showClient} />
      <DownloadPackageButton dispatch={dispatch} rowLabel />
    </div>
  )
}

/** A dispatch's box of the staff's bulk selection, named by its course (and client, where shown). */
export function SelectDispatchBox({
  dispatch,
  showClient,
  selection,
  className,
}: {
  dispatch: Dispatch
  showClient: boolean
  selection: RowSelection
  className: string
}) {
  return (
    <input
      type="checkbox"
      aria-label={`Select ${courseName(dispatch)}${showClient ? ` (${clientName(dispatch)})` : ''}`}
      className={className}
      checked={selection.selected.has(dispatch.id)}
      disabled={selection.disabled}
      onChange={() => selection.onToggle(dispatch.id)}
    />
  )
}

const SELECT_PAGE = 'Select all dispatches on this page'

/**
 * The box that ticks or clears every dispatch on the page, ticked when all of them are. Named by
 * visible text beside it (the cards), or by aria-label in the table's header cell.
 */
export function SelectPageBox({
  pageIds,
  selection,
  visibleLabel = false,
}: {
  pageIds: string[]
  selection: RowSelection
  visibleLabel?: boolean
}) {
  const box = (
    <input
      type="checkbox"
      aria-label={visibleLabel ? undefined : SELECT_PAGE}
      className="size-4"
      checked={pageIds.length > 0 && pageIds.every((id) => selection.selected.has(id))}
      disabled={selection.disabled}
      onChange={(e) => selection.onTogglePage(pageIds, e.target.checked)}
    />
  )
  if (!visibleLabel) return box
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700">
      {box}
      {SELECT_PAGE}
    </label>
  )
}
