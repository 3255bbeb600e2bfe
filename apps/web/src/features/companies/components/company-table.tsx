import { CompanyActions, ManagerField, NameInput, editOf, type CompanyListProps } from './company-edit-controls'
import { DataTable } from '@/components/ui/responsive-table'

const td = 'px-4 py-3 align-top'

/** docs/product-rules.md §2 Companies table (1024 px and up); the row being edited holds the inline form. */
export function CompanyTable({ companies, showManager, canEdit, editing, onEdit }: CompanyListProps) {
  return (
    <DataTable
      caption="Companies"
      headers={[
        'Company Name',
        ...(showManager ? ['Account Manager'] : []),
        'Users',
        'Course Requests',
        'Dispatches',
        'Actions',
      ]}
    >
      {companies.map((company) => {
        const edit = editOf(editing, company)
        return (
          <tr key={company.id} className="hover:bg-slate-50">
            <td className={`${td} font-medium text-slate-900`}>
              {edit ? <NameInput draft={edit.draft} onChange={edit.onChange} /> : company.name}
            </td>
            {showManager && (
              <td className={td}>
                <ManagerField company={company} edit={edit} />
              </td>
            )}
            <td className={`${td} tabular-nums`}>{company.counts.users}</td>
            <td className={`${td} tabular-nums`}>{company.counts.courseRequests}</td>
            <td className={`${td} tabular-nums`}>{company.counts.dispatches}</td>
            <td className={td}>
              <CompanyActions company={company} edit={edit} canEdit={canEdit} onEdit={onEdit} />
            </td>
          </tr>
        )
      })}
    </DataTable>
  )
}
