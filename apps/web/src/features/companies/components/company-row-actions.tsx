import type { Company } from '@portal/shared'
import { Button } from '@/components/ui/button'
import { Link } from '@/components/ui/link'
import { paths } from '@/config/paths'

/** docs/product-rules.md §2 Actions: Edit for admin, View for everyone with access. */
export function CompanyRowActions({
  company,
  canEdit,
  onEdit,
}: {
  company: Company
  canEdit: boolean
  onEdit: (company: Company) => void
}) {
  return (
    <div className="flex items-center gap-3">
      {canEdit && (
        <Button size="sm" variant="secondary" onClick={() => onEdit(company)}>
          Edit <span className="sr-only">{company.name}</span>
        </Button>
      )}
      <Link to={paths.company.getHref(company.id)}>
        View <span className="sr-only">{company.name}</span>
      </Link>
    </div>
  )
}
