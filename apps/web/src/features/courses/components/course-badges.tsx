import type { Course } from '@portal/shared'
import { Badge } from '@/components/ui/badge'
import { appSourceName, courseVersionLabel } from '../utils/course-labels'

/** docs/product-rules.md §2: "v" plus the version, 1.0 when none is known. */
export function VersionBadge({ version }: { version: string | null | undefined }) {
  return <Badge tone="blue">{`v${courseVersionLabel(version)}`}</Badge>
}

/** docs/product-rules.md §2 admin badges: the hosting app and whether clients see the course. */
export function AdminCourseBadges({ course }: { course: Pick<Course, 'appSource' | 'isVisible'> }) {
  return (
    <>
      {course.appSource && <Badge tone="neutral">{`App ${appSourceName(course.appSource)}`}</Badge>}
      {course.isVisible ? <Badge tone="green">Visible</Badge> : <Badge tone="yellow">Hidden</Badge>}
    </>
  )
}
