import { PermittedPage } from '@/app/permitted-page'
import { OutboxList } from '@/features/alerts/components/outbox-list'

/** /admin/outbox (admin; others go to /dashboard, as Settings does). */
export default function AdminOutboxRoute() {
  return (
    <PermittedPage permission="outbox.read" otherwise="dashboard" title="Mail Outbox">
      <OutboxList />
    </PermittedPage>
  )
}
