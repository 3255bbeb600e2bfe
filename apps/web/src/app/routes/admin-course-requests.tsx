import { AccessDenied } from '@/components/errors/access-denied'
import { ContentLayout } from '@/components/layouts/content-layout'
import { useUser } from '@/features/auth/components/auth-context'
import { Authorization } from '@/features/auth/components/authorization'
import { AdminCourseRequests } from '@/features/course-requests/components/admin-course-requests'

/** docs/product-rules.md §2 /admin/course-requests: admin edits, sales views; other roles see Access Denied. */
export default function AdminCourseRequestsRoute() {
  const user = useUser()
  return (
    <Authorization permission="courseRequest.readAll" forbidden={<AccessDenied />}>
      <ContentLayout title="Course Requests">
        <AdminCourseRequests role={user.role} />
      </ContentLayout>
    </Authorization>
  )
}
