import { PermittedPage } from '@/app/permitted-page'
import { JobsScreen } from '@/features/jobs/components/jobs-screen'

/** /admin/jobs (admin; others go to /dashboard, as the outbox does). */
export default function AdminJobsRoute() {
  return (
    <PermittedPage permission="jobs.manage" otherwise="dashboard" title="Jobs">
      <JobsScreen />
    </PermittedPage>
  )
}
