import { formatRegistrations, type Dispatch, type DispatchSort } from '@portal/shared'
import { SortHeader, type SortProps as DispatchSortProps } from '@/components/ui/sort-header'
import type { RowBadges } from '../types'
import { DispatchStatusBadge } from './dispatch-status-badge'
import { DispatchRowActions, SelectDispatchBox, SelectPageBox } from './dispatch-row-actions'
import { clientName, courseName } from './view-details-link'
import { DataTable, headerCellClass } from '@/components/ui/responsive-table'

type SortProps = DispatchSortProps<DispatchSort>

/** docs/product-rules.md §2: Client, Course, Status and Registrations sort on click, with an arrow for the direction. */
/** Checkboxes per row and for the page (staff bulk actions). */
export interface RowSelection {
  selected: ReadonlySet<string>
  onToggle(id: string): void
  onTogglePage(ids: string[], on: boolean): void
  /**
   * True while the rows on screen are the previous query's, kept visible as the next one loads:
   * a row ticked then would not be in the list the user asked for.
   */
  disabled: boolean
}

export function DispatchTable({
  dispatches,
  showClient,
  rowBadges,
  selection,
  ...sortProps
}: SortProps & { dispatches: Dispatch[]; showClient: boolean; rowBadges?: RowBadges; selection?: RowSelection }) {
  const pageIds = dispatches.map((d) => d.id)
  return (
    <DataTable
      caption="Dispatches"
      head={
        <>
          {selection && (
            <th scope="col" className={headerCellClass()}>
              <span className="sr-only">Select</span>
              <SelectPageBox pageIds={pageIds} selection={selection} />
            </th>
          )}
          {showClient && <SortHeader column="client" label="Client" {...sortProps} />}
          <SortHeader column="course" label="Course" {...sortProps} />
          <SortHeader column="status" label="Status" {...sortProps} />
          <SortHeader column="registrations" label="Registrations" {...sortProps} />
          <th scope="col" className={headerCellClass()}>
            Actions
          </th>
        </>
      }
    >
      {dispatches.map((dispatch) => (
        <tr key={dispatch.id} className="hover:bg-slate-50">
          {selection && (
            <td className="px-4 py-3">
              <SelectDispatchBox dispatch={dispatch} showClient={showClient} selection={selection} className="size-4" />
            </td>
          )}
          {showClient && <td className="px-4 py-3 whitespace-nowrap text-slate-900">{clientName(dispatch)}</td>}
          <td className="px-4 py-3 font-medium text-slate-900">
            {courseName(dispatch)}
            {rowBadges?.(dispatch.id, pageIds)}
          </td>
          <td className="px-4 py-3">
            <DispatchStatusBadge enabled={dispatch.enabled} />
          </td>
          <td className="px-4 py-3 text-slate-700 tabular-nums">
            {formatRegistrations(dispatch.registrationCount, dispatch.registrationCap)}
          </td>
          <td className="px-4 py-3">
            <DispatchRowActions dispatch={dispatch} showClient={showClient} layout="row" />
          </td>
        </tr>
      ))}
    </DataTable>
  )
}
