import { AccessDenied } from '@/components/errors/access-denied'
import { ContentLayout } from '@/components/layouts/content-layout'
import { useUser } from '@/features/auth/components/auth-context'
import { Authorization } from '@/features/auth/components/authorization'
import { LearnersScreen } from '@/features/learners/components/learners-screen'

/** /learners: a client its own company's learners; staff pick a company first. */
export default function LearnersRoute() {
  const user = useUser()
  return (
    <Authorization permission="learner.read" forbidden={<AccessDenied />}>
      <ContentLayout title="Learners">
        <LearnersScreen role={user.role} />
      </ContentLayout>
    </Authorization>
  )
}
