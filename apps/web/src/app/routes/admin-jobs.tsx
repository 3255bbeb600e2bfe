import { Navigate } from 'react-router'
import { ContentLayout } from '@/components/layouts/content-layout'
import { paths } from '@/config/paths'
import { Authorization } from '@/features/auth/components/authorization'
import { JobsScreen } from '@/features/jobs/components/jobs-screen'

/** /admin/jobs (admin; others go to /dashboard, as the outbox does). */
export default function AdminJobsRoute() {
  return (
    <Authorization permission="jobs.manage" forbidden={<Navigate to={paths.dashboard.getHref()} replace />}>
      <ContentLayout title="Jobs">
        <JobsScreen />
      </ContentLayout>
    </Authorization>
  )
}
