import {
  can,
  LEARNER_PAGE_SIZES,
  showingRange,
  type LearnerListQuery,
  type LearnerSort,
  type Role,
} from '@portal/shared'
import { Users } from 'lucide-react'
import { useEffect, useState, type FormEvent } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { CompanyPicker } from '@/components/ui/company-picker'
import { EmptyState } from '@/components/ui/empty-state'
import { ExportMenu } from '@/components/ui/export-menu'
import { SearchInput } from '@/components/ui/search-input'
import { PagedFooter } from '@/components/ui/pagination'
import { labelOptions, numberOptions, Select } from '@/components/ui/select'
import { COMPLETION_LABELS } from '@/components/ui/status-badges'
import { Spinner } from '@/components/ui/spinner'
import { useIsWideScreen } from '@/components/ui/use-is-wide-screen'
import { errorMessage } from '@/lib/api-error'
import { useLearners } from '../api/get-learners'
import { useLearnerListParams } from '../hooks/use-learner-list-params'
import { LearnerDetails } from './learner-details'
import { LearnerCards, LearnerTable } from './learner-table'

/** A learner's course still under way reads In Progress here (a report's badge says Incomplete). */
const STATUS_OPTIONS = labelOptions(
  { ...COMPLETION_LABELS, incomplete: 'In Progress' },
  { value: '', label: 'All Statuses' },
)
const PAGE_SIZE_OPTIONS = numberOptions(LEARNER_PAGE_SIZES)

/** "Showing X to Y of Z learners", like the dispatch list's text ("1,000+" for a capped search). */
export function showingLearnersText(page: number, pageSize: number, total: number, capped: boolean) {
  const { from, to } = showingRange(page, pageSize, total)
  return `Showing ${from} to ${to} of ${total}${capped ? '+' : ''} ${total === 1 && !capped ? 'learner' : 'learners'}`
}

/** /learners: one row per learner across every dispatch of a company. */
export function LearnersScreen({ role }: { role: Role }) {
  const { state, update } = useLearnerListParams()
  const staff = can(role, 'destination.read')
  const companyId = staff ? state.companyId : ''
  const ready = !staff || Boolean(companyId)
  const query: LearnerListQuery = {
    page: state.page,
    pageSize: state.pageSize,
    search: state.search || undefined,
    courseId: state.courseId || undefined,
    status: state.status || undefined,
    sort: state.sort,
    order: state.order,
    ...(staff ? { companyId } : {}),
  }
  const { data, error, isPending, isPlaceholderData } = useLearners(query, ready)
  const wide = useIsWideScreen()
  const [search, setSearch] = useState(state.search)
  // The box follows the URL (back/forward): adjusted while rendering, not in an effect.
  const [shownSearch, setShownSearch] = useState(state.search)
  if (shownSearch !== state.search) {
    setShownSearch(state.search)
    setSearch(state.search)
  }

  const onSort = (sort: LearnerSort) =>
    update({ sort, order: sort === state.sort && state.order === 'asc' ? 'desc' : 'asc' })
  const open = (key: string) => update({ learner: key })
  const pagination = data?.pagination
  const totalPages = pagination?.totalPages ?? 0

  // A page past the end (an old link, or learners gone meanwhile) moves to the last page.
  const pastEnd = !isPlaceholderData && totalPages > 0 && state.page > totalPages
  useEffect(() => {
    if (pastEnd) update({ page: totalPages }, { replace: true })
  }, [pastEnd, totalPages, update])

  const submitSearch = (event: FormEvent) => {
    event.preventDefault()
    update({ search: search.trim() })
  }
  const courseOptions = [
    { value: '', label: 'All Courses' },
    ...(data?.courses ?? []).map((c) => ({ value: c.id, label: c.title || c.id })),
  ]
  const exportParams = {
    companyId: staff ? companyId : undefined,
    search: query.search,
    courseId: query.courseId,
    status: query.status,
    sort: query.sort,
    order: query.order,
  }

  return (
    <div className="space-y-6">
      {staff && (
        // Staff choose the company whose learners they see; the URL keeps it.
        <div className="max-w-md">
          <CompanyPicker
            value={companyId}
            onChange={(id) => update({ companyId: id, courseId: '', learner: '' })}
            loadFailed="Failed to fetch companies"
          />
        </div>
      )}
      {!ready ? (
        <EmptyState icon={Users} title="Choose a company" description="Pick a company to see its learners." />
      ) : (
        <>
          {error && <Banner variant="error">{errorMessage(error, 'Failed to fetch learners')}</Banner>}
          {data?.building && (
            <Banner variant="info">
              The first sync is still building this company&apos;s learner figures. The list is complete when it
              finishes.
            </Banner>
          )}
          <div className="flex flex-wrap items-end gap-3">
            <form role="search" onSubmit={submitSearch} className="flex items-end gap-2">
              <SearchInput label="Search learners" placeholder="Name or email" value={search} onChange={setSearch} />
              <Button type="submit" variant="secondary">
                Search
              </Button>
            </form>
            <Select
              label="Course"
              value={state.courseId}
              options={courseOptions}
              onChange={(e) => update({ courseId: e.target.value })}
            />
            <Select
              label="Status"
              value={state.status}
              options={STATUS_OPTIONS}
              onChange={(e) => update({ status: e.target.value as typeof state.status })}
            />
            <Select
              label="Learners per page"
              value={String(state.pageSize)}
              options={PAGE_SIZE_OPTIONS}
              onChange={(e) => update({ pageSize: Number(e.target.value) as typeof state.pageSize })}
            />
            <div className="ml-auto">
              <ExportMenu path="/api/learners/export" params={exportParams} fileName="learners" />
            </div>
          </div>
          {isPending && !data ? (
            <Spinner label="Loading learners..." className="py-8" />
          ) : (
            data && (
              <div aria-busy={isPlaceholderData} className={isPlaceholderData ? 'opacity-60' : undefined}>
                {data.learners.length === 0 ? (
                  <EmptyState icon={Users} title="No learners found" />
                ) : wide ? (
                  <LearnerTable
                    learners={data.learners}
                    sort={state.sort}
                    order={state.order}
                    onSort={onSort}
                    onOpen={open}
                  />
                ) : (
                  <LearnerCards learners={data.learners} onOpen={open} />
                )}
              </div>
            )
          )}
          {pagination && pagination.totalItems > 0 && (
            <PagedFooter
              showing={showingLearnersText(
                pagination.page,
                pagination.pageSize,
                pagination.totalItems,
                data.totalCapped,
              )}
              label="Learner pages"
              page={pagination.page}
              totalPages={totalPages}
              onPageChange={(page) => update({ page })}
            />
          )}
        </>
      )}
      {state.learner && ready && (
        <LearnerDetails
          learnerKey={state.learner}
          companyId={staff ? companyId : undefined}
          onClose={() => update({ learner: '' })}
        />
      )}
    </div>
  )
}
