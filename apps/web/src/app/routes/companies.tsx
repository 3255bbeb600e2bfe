import { PermittedPage } from '@/app/permitted-page'
import { CompaniesList } from '@/features/companies/components/companies-list'

/** docs/product-rules.md §2 /admin/companies: admins view, edit and sync; sales view only; others Access Denied. */
export default function CompaniesRoute() {
  return (
    <PermittedPage permission="company.read" title="Companies">
      {(user) => <CompaniesList role={user.role} />}
    </PermittedPage>
  )
}
