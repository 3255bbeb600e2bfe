import { Navigate } from 'react-router'
import { ContentLayout } from '@/components/layouts/content-layout'
import { paths } from '@/config/paths'
import { Authorization } from '@/features/auth/components/authorization'
import { OutboxList } from '@/features/alerts/components/outbox-list'

/** /admin/outbox (admin; others go to /dashboard, as Settings does). */
export default function AdminOutboxRoute() {
  return (
    <Authorization permission="outbox.read" forbidden={<Navigate to={paths.dashboard.getHref()} replace />}>
      <ContentLayout title="Mail Outbox">
        <OutboxList />
      </ContentLayout>
    </Authorization>
  )
}
