import { useParams } from 'react-router'
import { useUser } from '@/features/auth/components/auth-context'
import { PageSection, PermittedPage } from '@/app/permitted-page'
import { CompanyDetailView } from '@/features/companies/components/company-detail'
import { CompanyAlertSettings } from '@/features/alerts/components/alert-settings-section'
import { CompanyMfaRule } from '@/features/auth/components/admin-security'
import { CompanyDeliverySection } from '@/features/delivery/components/company-delivery'
import { CompanyApiKeys } from '@/features/api-keys/components/company-api-keys'
import { CompanyRenewals } from '@/features/renewals/components/company-renewals'
import { can } from '@portal/shared'

/** docs/product-rules.md §2 /admin/companies/{id}. */
export default function CompanyRoute() {
  const { id = '' } = useParams()
  const user = useUser()
  return (
    <PermittedPage permission="company.read">
      <CompanyDetailView key={id} id={id} role={user.role} />
      {/* Scheduled renewals of the company's dispatches (staff who may edit dispatches). */}
      {can(user.role, 'dispatch.update') && (
        <PageSection>
          <CompanyRenewals key={id} companyId={id} />
        </PageSection>
      )}
      {/* Launch authentication, instancing, learner data hashing and style sheet (the admin edits). */}
      <PageSection>
        <CompanyDeliverySection key={id} companyId={id} canEdit={can(user.role, 'delivery.update')} />
      </PageSection>
      {/* "Second factor required" for the company's client users (admin). */}
      {can(user.role, 'company.update') && (
        <PageSection>
          <CompanyMfaRule key={id} companyId={id} />
        </PageSection>
      )}
      {/* Whether the company's users may make API keys (admin). */}
      {can(user.role, 'company.update') && (
        <section aria-label="API keys" className="mx-auto mt-6 w-full max-w-7xl">
          <h2 className="mb-2 text-base font-semibold text-slate-900">API keys</h2>
          <CompanyApiKeys key={id} companyId={id} />
        </section>
      )}
      {/* The company's alert thresholds (admin), below the tabs. */}
      {can(user.role, 'alertSettings.manage') && (
        <PageSection>
          <CompanyAlertSettings key={id} companyId={id} />
        </PageSection>
      )}
    </PermittedPage>
  )
}
