import { can, formatDateTime, type Role } from '@portal/shared'
import { SearchX } from 'lucide-react'
import { useCallback, useMemo } from 'react'
import { Banner } from '@/components/ui/banner'
import { EmptyState } from '@/components/ui/empty-state'
import { PagedFooter } from '@/components/ui/pagination'
import { errorMessage } from '@/lib/api-error'
import { useCourses } from '../api/get-courses'
import { useCatalogueParams } from '../hooks/use-catalogue-params'
import type { UiEventHandler } from '@/types/ui-event'
import { applyCatalogueQuery, showingCoursesText } from '../utils/catalogue'
import { CourseCard } from './course-card'
import { CourseFilters } from './course-filters'
import { CourseGridSkeleton } from './course-grid-skeleton'
import { SyncCoursesButton } from './sync-courses-button'
import { useViewedEvent } from '@/hooks/use-viewed-event'

export const FETCH_COURSES_FAILED = 'Failed to fetch courses'

/** docs/product-rules.md §2 "Courses screen": the catalogue, filtered, sorted and paged in the browser (docs/product-rules.md §5). */
export function CourseCatalogue({ role, onEvent }: { role: Role; onEvent: UiEventHandler }) {
  const { data, error, isPending } = useCourses()
  const { query, update } = useCatalogueParams()
  // docs/product-rules.md §6: the visibility filter and the sync button are for admins.
  const isAdmin = can(role, 'course.sync')

  useViewedEvent(onEvent, 'COURSE_OVERVIEW_VIEWED')

  const onSearch = useCallback(
    (search: string) => {
      update({ search })
      if (search.trim()) onEvent('COURSE_SEARCH_PERFORMED', { search: search.trim() })
    },
    [update, onEvent],
  )

  const result = useMemo(
    () => (data ? applyCatalogueQuery(data.courses, query, isAdmin) : null),
    [data, query, isAdmin],
  )

  if (error) {
    return <Banner variant="error">{errorMessage(error, FETCH_COURSES_FAILED)}</Banner>
  }

  return (
    <div className="space-y-6">
      <div className="flex flex-col justify-between gap-3 md:flex-row md:items-start">
        <p className="text-sm text-slate-600">
          {data?.lastSyncedAt
            ? `Catalogue last synced: ${formatDateTime(data.lastSyncedAt)}`
            : data
              ? 'Catalogue not synced yet'
              : '\u00a0'}
        </p>
        {isAdmin && <SyncCoursesButton />}
      </div>
      <CourseFilters query={query} showVisibility={isAdmin} onChange={update} onSearch={onSearch} />
      {isPending || !result ? (
        <CourseGridSkeleton />
      ) : result.total === 0 ? (
        <EmptyState
          icon={SearchX}
          title="No courses found"
          description="Try adjusting your search or filter criteria."
        />
      ) : (
        <>
          <div className="grid gap-6 sm:grid-cols-2 xl:grid-cols-3">
            {result.items.map((course) => (
              <CourseCard key={course.id} course={course} role={role} />
            ))}
          </div>
          <PagedFooter
            showing={showingCoursesText(result.page, query.pageSize, result.total)}
            label="Course pages"
            page={result.page}
            totalPages={result.totalPages}
            onPageChange={(page) => update({ page })}
          />
        </>
      )}
    </div>
  )
}
