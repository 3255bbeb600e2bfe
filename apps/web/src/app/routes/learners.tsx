import { AccessDenied } from '@/components/errors/access-denied'
import { ContentLayout } from '@/components/layouts/content-layout'
import { useUser } from '@/features/auth/components/auth-context'
import { Authorization } from '@/features/auth/components/authorization'
import { LearnersScreen } from '@/features/learners/components/learners-screen'
import { CompanyLicenceCount } from '@/features/delivery/components/company-licence-count'
import { can } from '@portal/shared'
import { useSearchParams } from 'react-router'

/** /learners: a client its own company's learners; staff pick a company first. */
export default function LearnersRoute() {
  const user = useUser()
  const [params] = useSearchParams()
  // Staff pick the company (the learner list keeps it in the URL); a client's is its own.
  const companyId = can(user.role, 'destination.read') ? (params.get('companyId') ?? '') : (user.companyId ?? '')
  return (
    <Authorization permission="learner.read" forbidden={<AccessDenied />}>
      <ContentLayout title="Learners">
        <CompanyLicenceCount companyId={companyId} />
        <LearnersScreen role={user.role} />
      </ContentLayout>
    </Authorization>
  )
}
