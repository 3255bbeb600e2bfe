import { AccessDenied } from '@/components/errors/access-denied'
import { ContentLayout } from '@/components/layouts/content-layout'
import { useUser } from '@/features/auth/components/auth-context'
import { Authorization } from '@/features/auth/components/authorization'
import { CompaniesList } from '@/features/companies/components/companies-list'

/** docs/product-rules.md §2 /admin/companies: admins view, edit and sync; sales view only; others Access Denied. */
export default function CompaniesRoute() {
  const user = useUser()
  return (
    <Authorization permission="company.read" forbidden={<AccessDenied />}>
      <ContentLayout title="Companies">
        <CompaniesList role={user.role} />
      </ContentLayout>
    </Authorization>
  )
}
