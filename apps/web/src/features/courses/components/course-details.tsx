import { can, ownCompanyOnly, type Role } from '@portal/shared'
import { useEffect, useRef, useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { Breadcrumb } from '@/components/ui/breadcrumb'
import { Spinner } from '@/components/ui/spinner'
import { useTimedMessage } from '@/components/ui/use-timed-message'
import { APP_NAME } from '@/config/app'
import { paths } from '@/config/paths'
import { ApiError, errorMessage } from '@/lib/api-error'
import { useCourseDetails } from '../api/get-course-details'
import type { UiEventHandler } from '@/types/ui-event'
import { CourseAccessCard } from './course-access-card'
import { CourseDispatchesTable } from './course-dispatches-table'
import { CourseEditForm, EDIT_TEXTS } from './course-edit-form'
import { CourseOverview } from './course-overview'
import { CourseRequestSection } from './course-request-section'
import { CourseSidePanel } from './course-side-panel'

/** docs/product-rules.md §9: the edit success banner clears after 3 s. */
export const EDIT_MESSAGE_MS = 3000
export const DETAILS_TEXTS = {
  incomplete: 'Course not found or data is incomplete.',
  failed: 'Failed to fetch course details',
} as const

/**
 * docs/product-rules.md §2 "Course details screen". What each role sees is decided by the server's answer
 * (hidden courses, stats, access, demo link); the role only picks which controls show.
 */
export function CourseDetailsScreen({
  id,
  role,
  openRequest,
  onEvent,
  onRequestSubmitted,
}: {
  id: string
  role: Role
  openRequest: boolean
  onEvent: UiEventHandler
  onRequestSubmitted?: () => void
}) {
  const { data: course, error, isPending } = useCourseDetails(id)
  const [editing, setEditing] = useState(false)
  const saved = useTimedMessage(EDIT_MESSAGE_MS)
  const staff = can(role, 'course.readStats')
  const complete = Boolean(course?.id && course.title)

  const reported = useRef<string | null>(null)
  useEffect(() => {
    if (!course || reported.current === course.id) return
    reported.current = course.id
    onEvent('COURSE_DETAILS_LOADED', { courseId: course.id })
  }, [course, onEvent])

  const title = complete ? course!.title : 'Course Details'
  let body
  if (isPending) {
    body = <Spinner label="Loading course details..." className="py-12" />
  } else if (error && !(error instanceof ApiError && error.status === 404)) {
    body = <Banner variant="error">{errorMessage(error, DETAILS_TEXTS.failed)}</Banner>
  } else if (!course || !complete) {
    body = <Banner variant="error">{DETAILS_TEXTS.incomplete}</Banner>
  } else {
    body = (
      <div className="space-y-6">
        {saved.message && <Banner variant={saved.message.variant}>{saved.message.text}</Banner>}
        <div className="grid gap-6 lg:grid-cols-3">
          <div className="space-y-6 lg:col-span-2">
            {editing ? (
              <CourseEditForm
                course={course}
                onCancel={() => setEditing(false)}
                onSaved={() => {
                  setEditing(false)
                  saved.show(EDIT_TEXTS.success)
                }}
              />
            ) : (
              <CourseOverview course={course} />
            )}
          </div>
          <aside aria-label="Course information" className="min-w-0 space-y-6">
            {staff && <CourseSidePanel course={course} role={role} editing={editing} onEdit={() => setEditing(true)} />}
            {ownCompanyOnly(role) && course.access && <CourseAccessCard access={course.access} />}
            {can(role, 'courseRequest.create') && (
              <CourseRequestSection course={course} openAtOnce={openRequest} onSubmitted={onRequestSubmitted} />
            )}
          </aside>
        </div>
        {staff && <CourseDispatchesTable dispatches={course.dispatches ?? []} />}
      </div>
    )
  }

  return (
    <>
      <title>{`${title} | ${APP_NAME}`}</title>
      <div className="mx-auto w-full max-w-7xl">
        <Breadcrumb
          items={[
            { label: 'Dashboard', href: paths.dashboard.getHref() },
            { label: 'Courses', href: paths.courses.getHref() },
            { label: title },
          ]}
        />
        {/* While loading the heading is for screen readers only: the loaded overview brings its own
            title, and a visible placeholder heading would shift the whole page when it goes (CLS). */}
        {!complete && (
          <h1 className={isPending ? 'sr-only' : 'text-2xl font-semibold tracking-tight text-slate-900'}>{title}</h1>
        )}
        <div className="mt-4">{body}</div>
      </div>
    </>
  )
}
