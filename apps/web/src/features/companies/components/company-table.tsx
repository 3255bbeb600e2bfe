import type { Company } from '@portal/shared'
import { EditActions, ManagerCell, ManagerSelect, NameInput, type EditProps } from './company-edit-controls'
import { CompanyRowActions } from './company-row-actions'
import { TableScrollBox } from '@/components/ui/responsive-table'

const th = 'px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-700 uppercase'
const td = 'px-4 py-3 align-top'

type Props = {
  companies: readonly Company[]
  showManager: boolean
  canEdit: boolean
  editing: Omit<EditProps, 'draft'> & { draft: EditProps['draft'] | null }
  onEdit: (company: Company) => void
}

/** SPEC §2 Companies table (1024 px and up); the row being edited holds the inline form. */
export function CompanyTable({ companies, showManager, canEdit, editing, onEdit }: Props) {
  const { draft } = editing
  return (
    <TableScrollBox label="Companies">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Companies</caption>
        <thead className="bg-slate-50">
          <tr>
            <th scope="col" className={th}>
              Company Name
            </th>
            {showManager && (
              <th scope="col" className={th}>
                Account Manager
              </th>
            )}
            <th scope="col" className={th}>
              Users
            </th>
            <th scope="col" className={th}>
              Course Requests
            </th>
            <th scope="col" className={th}>
              Dispatches
            </th>
            <th scope="col" className={th}>
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {companies.map((company) => {
            const edit = draft?.id === company.id ? { ...editing, draft } : null
            return (
              <tr key={company.id} className="hover:bg-slate-50">
                <td className={`${td} font-medium text-slate-900`}>
                  {edit ? <NameInput draft={edit.draft} onChange={edit.onChange} /> : company.name}
                </td>
                {showManager && (
                  <td className={td}>{edit ? <ManagerSelect {...edit} /> : <ManagerCell company={company} />}</td>
                )}
                <td className={`${td} tabular-nums`}>{company.counts.users}</td>
                <td className={`${td} tabular-nums`}>{company.counts.courseRequests}</td>
                <td className={`${td} tabular-nums`}>{company.counts.dispatches}</td>
                <td className={td}>
                  {edit ? (
                    <EditActions {...edit} />
                  ) : (
                    <CompanyRowActions company={company} canEdit={canEdit} onEdit={onEdit} />
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </TableScrollBox>
  )
}
