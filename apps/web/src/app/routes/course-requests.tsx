import { can } from '@portal/shared'
import { ContentLayout } from '@/components/layouts/content-layout'
import { Banner } from '@/components/ui/banner'
import { Link } from '@/components/ui/link'
import { paths } from '@/config/paths'
import { useUser } from '@/features/auth/components/auth-context'
import { MyCourseRequests } from '@/features/course-requests/components/my-course-requests'

/**
 * docs/product-rules.md §2 /course-requests: My Course Requests, the client's view. Only clients request
 * courses; other roles get a pointer (admin and sales to their own screen) instead of a list.
 */
export default function CourseRequestsRoute() {
  const user = useUser()
  return (
    <ContentLayout title="My Course Requests">
      {can(user.role, 'courseRequest.readOwn') ? (
        <MyCourseRequests />
      ) : (
        <Banner variant="info">
          Only client accounts request courses.{' '}
          {can(user.role, 'courseRequest.readAll') && (
            <Link to={paths.adminCourseRequests.getHref()}>Go to Course Requests</Link>
          )}
        </Banner>
      )}
    </ContentLayout>
  )
}
