import { AccessDenied } from '@/components/errors/access-denied'
import { ContentLayout } from '@/components/layouts/content-layout'
import { useUser } from '@/features/auth/components/auth-context'
import { Authorization } from '@/features/auth/components/authorization'
import { StatementsScreen } from '@/features/statements/components/statements-screen'

/** /statements: monthly usage statements (a client its own company's; staff pick a company). */
export default function StatementsRoute() {
  const user = useUser()
  return (
    <Authorization permission="statement.read" forbidden={<AccessDenied />}>
      <ContentLayout title="Usage statements">
        <StatementsScreen role={user.role} ownCompanyId={user.companyId ?? null} />
      </ContentLayout>
    </Authorization>
  )
}
