import { useUser } from '@/features/auth/components/auth-context'
import { PermittedPage } from '@/app/permitted-page'
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
    <PermittedPage permission="learner.read" title="Learners">
      <CompanyLicenceCount companyId={companyId} />
      <LearnersScreen role={user.role} />
    </PermittedPage>
  )
}
