import { ContentLayout } from '@/components/layouts/content-layout'
import { logAction } from '@/features/activity/api/log-action'
import { useUser } from '@/features/auth/components/auth-context'
import { CourseCatalogue } from '@/features/courses/components/course-catalogue'
import type { UiEventHandler } from '@/types/ui-event'

const recordUiEvent: UiEventHandler = (action, details) => void logAction(action, details)

/** docs/product-rules.md §2 /courses: the course catalogue. */
export default function CoursesRoute() {
  const user = useUser()
  return (
    <ContentLayout title="Courses">
      <CourseCatalogue role={user.role} onEvent={recordUiEvent} />
    </ContentLayout>
  )
}
