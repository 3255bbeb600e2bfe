import { can, ownCompanyOnly, showingDispatchesText, type DispatchSort, type Role } from '@portal/shared'
import { Inbox } from 'lucide-react'
import { useEffect, useMemo, useState, type ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import { Banner } from '@/components/ui/banner'
import { PagedFooter } from '@/components/ui/pagination'
import { errorMessage } from '@/lib/api-error'
import { useDispatches } from '../api/get-dispatches'
import { useDispatchListParams } from '@/hooks/use-dispatch-list-params'
import { useIsWideScreen } from '@/components/ui/use-is-wide-screen'
import type { BulkSlot, DispatchSelection, RowBadges } from '../types'
import type { UiEventHandler } from '@/types/ui-event'
import { DispatchCards } from './dispatch-cards'
import { DispatchFilters } from './dispatch-filters'
import { DispatchListSkeleton } from './dispatch-list-skeleton'
import { DispatchSummaryCards } from './dispatch-summary-cards'
import { DispatchTable } from './dispatch-table'
import { DownloadAllPackagesButton } from './download-package-button'
import { NewDispatchButton } from './new-dispatch-button'
import { useViewedEvent } from '@/hooks/use-viewed-event'

/** docs/product-rules.md §2 "Dispatch list screen" (docs/product-decisions.md D6: it is the dashboard). */
export function DispatchList({
  role,
  onEvent,
  rowBadges,
  charts,
  bulk,
}: {
  role: Role
  onEvent: UiEventHandler
  rowBadges?: RowBadges
  /** Shown between the filters and the list, so charts over the filtered list are seen first. */
  charts?: ReactNode
  /** Bulk actions for staff who may edit dispatches: rows and cards get checkboxes. */
  bulk?: BulkSlot
}) {
  const { query, update } = useDispatchListParams()
  const { data, error, isPending, isPlaceholderData } = useDispatches(query)
  const wide = useIsWideScreen()
  // docs/product-rules.md §6: the Client column and the active registration count are for staff.
  const staff = can(role, 'destination.read')
  // Admins create dispatches; a client downloads all its packages at once.
  const canCreate = can(role, 'dispatch.create')
  const companyName = data?.dispatches[0]?.destinationName ?? ''

  useViewedEvent(onEvent, 'DASHBOARD_VIEWED', { page: query.page, status: query.status })

  const onSort = (sort: DispatchSort) =>
    update({ sort, order: sort === query.sort && query.order === 'asc' ? 'desc' : 'asc' })

  const pagination = data?.pagination
  const totalPages = pagination?.totalPages ?? 0

  // The selection is the filter's: a new search or status starts it again.
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [allMatching, setAllMatching] = useState(false)
  const filterKey = `${query.search ?? ''}|${query.status ?? ''}`
  const [selectionFilter, setSelectionFilter] = useState(filterKey)
  if (selectionFilter !== filterKey) {
    setSelectionFilter(filterKey)
    setSelected(new Set())
    setAllMatching(false)
  }
  const selectable = bulk !== undefined && can(role, 'dispatch.update')
  const selection = useMemo<DispatchSelection>(() => {
    const clear = () => {
      setSelected(new Set())
      setAllMatching(false)
    }
    const status = query.status === 'enabled' || query.status === 'disabled' ? query.status : undefined
    return allMatching
      ? {
          dispatchIds: null,
          filter: { ...(query.search ? { search: query.search } : {}), ...(status ? { status } : {}) },
          count: pagination?.totalItems ?? 0,
          clear,
        }
      : { dispatchIds: [...selected], filter: null, count: selected.size, clear }
  }, [allMatching, selected, query.search, query.status, pagination?.totalItems])
  const pageIds = data?.dispatches.map((d) => d.id) ?? []
  const pageSelected = pageIds.length > 0 && pageIds.every((id) => selected.has(id))
  const rowSelection = {
    selected: allMatching ? new Set(pageIds) : selected,
    disabled: isPlaceholderData,
    onToggle: (id: string) => {
      setAllMatching(false)
      setSelected((old) => {
        const next = new Set(allMatching ? pageIds : old)
        if (next.has(id)) next.delete(id)
        else next.add(id)
        return next
      })
    },
    onTogglePage: (ids: string[], on: boolean) => {
      setAllMatching(false)
      setSelected((old) => {
        const next = new Set(old)
        for (const id of ids) {
          if (on) next.add(id)
          else next.delete(id)
        }
        return next
      })
    },
  }

  // A page past the end (an old link, or rows removed meanwhile) moves to the last page.
  const pastEnd = !isPlaceholderData && totalPages > 0 && query.page > totalPages
  useEffect(() => {
    if (pastEnd) update({ page: totalPages }, { replace: true })
  }, [pastEnd, totalPages, update])

  return (
    <div className="space-y-6">
      {error && <Banner variant="error">{errorMessage(error, 'Failed to fetch dispatches')}</Banner>}
      {(canCreate || (ownCompanyOnly(role) && companyName)) && (
        <div className="flex flex-wrap justify-end gap-2">
          {canCreate && <NewDispatchButton />}
          {ownCompanyOnly(role) && companyName && <DownloadAllPackagesButton companyName={companyName} />}
        </div>
      )}
      {isPending ? (
        <DispatchListSkeleton />
      ) : (
        data && <DispatchSummaryCards summary={data.summary} showActive={staff} />
      )}
      <DispatchFilters
        search={query.search ?? ''}
        status={query.status}
        pageSize={query.pageSize}
        onSearch={(search) => {
          update({ search })
          onEvent('DISPATCH_SEARCH_PERFORMED', { search })
        }}
        onStatusChange={(status) => {
          update({ status })
          onEvent('DISPATCH_STATUS_FILTER_CHANGED', { status })
        }}
        onPageSizeChange={(pageSize) => {
          update({ pageSize })
          onEvent('DISPATCH_ITEMS_PER_PAGE_CHANGED', { pageSize })
        }}
      />
      {charts}
      {selectable && selection.count > 0 && (
        <div
          className="space-y-3 rounded-lg border border-blue-200 bg-blue-50 p-4"
          aria-label="Selection"
          role="region"
        >
          <div className="flex flex-wrap items-center gap-3 text-sm text-slate-800">
            <p aria-live="polite">
              {allMatching
                ? `All ${selection.count} dispatches matching this filter are selected.`
                : `${selection.count} selected`}
            </p>
            {!allMatching && pageSelected && (pagination?.totalItems ?? 0) > pageIds.length && (
              <Button variant="secondary" size="sm" onClick={() => setAllMatching(true)}>
                Select all {pagination?.totalItems} matching this filter
              </Button>
            )}
            <Button variant="ghost" size="sm" onClick={selection.clear}>
              Clear selection
            </Button>
          </div>
          {bulk(selection)}
        </div>
      )}
      {data && (
        <div aria-busy={isPlaceholderData} className={isPlaceholderData ? 'opacity-60' : undefined}>
          {data.dispatches.length === 0 ? (
            <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
              <Inbox aria-hidden="true" className="mx-auto size-10 text-slate-400" />
              <h2 className="mt-3 text-base font-semibold text-slate-900">No dispatches found</h2>
              <p className="mt-1 text-sm text-slate-600">Get started by creating a new dispatch</p>
              {canCreate && (
                <div className="mt-4 flex justify-center">
                  <NewDispatchButton variant="secondary" />
                </div>
              )}
            </div>
          ) : wide ? (
            <DispatchTable
              dispatches={data.dispatches}
              showClient={staff}
              sort={query.sort}
              order={query.order}
              onSort={onSort}
              rowBadges={rowBadges}
              selection={selectable ? rowSelection : undefined}
            />
          ) : (
            <DispatchCards
              dispatches={data.dispatches}
              showClient={staff}
              rowBadges={rowBadges}
              selection={selectable ? rowSelection : undefined}
            />
          )}
        </div>
      )}
      {pagination && pagination.totalItems > 0 && (
        <PagedFooter
          showing={showingDispatchesText(pagination.page, pagination.pageSize, pagination.totalItems)}
          label="Dispatch pages"
          page={pagination.page}
          totalPages={totalPages}
          onPageChange={(page) => {
            update({ page })
            onEvent('DISPATCH_PAGINATION_CHANGED', { page })
          }}
        />
      )}
    </div>
  )
}
