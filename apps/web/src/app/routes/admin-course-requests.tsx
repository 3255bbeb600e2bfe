import { PermittedPage } from '@/app/permitted-page'
import { AdminCourseRequests } from '@/features/course-requests/components/admin-course-requests'

/** docs/product-rules.md §2 /admin/course-requests: admin edits, sales views; other roles see Access Denied. */
export default function AdminCourseRequestsRoute() {
  return (
    <PermittedPage permission="courseRequest.readAll" title="Course Requests">
      {(user) => <AdminCourseRequests role={user.role} />}
    </PermittedPage>
  )
}
