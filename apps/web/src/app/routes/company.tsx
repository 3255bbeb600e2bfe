import { useParams } from 'react-router'
import { AccessDenied } from '@/components/errors/access-denied'
import { useUser } from '@/features/auth/components/auth-context'
import { Authorization } from '@/features/auth/components/authorization'
import { CompanyDetailView } from '@/features/companies/components/company-detail'

/** SPEC §2 /admin/companies/{id}. */
export default function CompanyRoute() {
  const { id = '' } = useParams()
  const user = useUser()
  return (
    <Authorization permission="company.read" forbidden={<AccessDenied />}>
      <CompanyDetailView key={id} id={id} role={user.role} />
    </Authorization>
  )
}
