import { PermittedPage } from '@/app/permitted-page'
import { StatementsScreen } from '@/features/statements/components/statements-screen'

/** /statements: monthly usage statements (a client its own company's; staff pick a company). */
export default function StatementsRoute() {
  return (
    <PermittedPage permission="statement.read" title="Usage statements">
      {(user) => <StatementsScreen role={user.role} ownCompanyId={user.companyId ?? null} />}
    </PermittedPage>
  )
}
