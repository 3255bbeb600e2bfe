import { can, formatDate, type CourseDetails, type Role } from '@portal/shared'
import { Pencil } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { CardSection } from '@/components/ui/card-section'
import { appSourceName } from '../utils/course-labels'
import { CourseVisibilityControl } from './course-visibility-control'
import { detailRow } from '@/components/ui/detail-row'

const Fact = detailRow(
  'flex justify-between gap-4 py-2',
  'shrink-0 text-slate-600',
  'min-w-0 text-right font-medium break-words text-slate-900 tabular-nums',
)
/** A long value (the course id) reads better on a line of its own than wrapped against its label. */
const StackedFact = detailRow(
  'py-2',
  'text-slate-600',
  'mt-0.5 font-mono text-xs font-medium break-words text-slate-900',
)

/**
 * docs/product-rules.md §2 side panel for admin, sales and internal: id, created date and the dispatch
 * figures; admins also get the visibility switch, Edit Course and the hosting app.
 */
export function CourseSidePanel({
  course,
  role,
  onEdit,
  editing,
}: {
  course: CourseDetails
  role: Role
  onEdit: () => void
  editing: boolean
}) {
  const stats = course.stats
  const admin = can(role, 'course.edit')
  return (
    <CardSection id="course-info" title="Course Information">
      <dl className="mt-3 divide-y divide-slate-100 text-sm">
        <StackedFact label="Course ID">{course.id}</StackedFact>
        <Fact label="Created">{formatDate(course.created)}</Fact>
        <Fact label="Total Registrations">{(stats?.totalRegistrations ?? 0).toLocaleString('en-US')}</Fact>
        <Fact label="Active Dispatches">{stats?.activeDispatches ?? 0}</Fact>
        <Fact label="Total Dispatches">{stats?.totalDispatches ?? 0}</Fact>
        {admin && (
          <Fact label="Hosting App">{course.appSource ? `App ${appSourceName(course.appSource)}` : 'N/A'}</Fact>
        )}
      </dl>
      {admin && (
        <div className="mt-4 space-y-4 border-t border-slate-200 pt-4">
          <CourseVisibilityControl courseId={course.id} isVisible={course.isVisible} />
          {!editing && (
            <Button variant="secondary" className="w-full" onClick={onEdit}>
              <Pencil aria-hidden="true" className="size-4" />
              Edit Course
            </Button>
          )}
        </div>
      )}
    </CardSection>
  )
}
