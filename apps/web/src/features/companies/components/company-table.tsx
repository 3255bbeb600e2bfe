import {
  EditActions,
  ManagerCell,
  ManagerSelect,
  NameInput,
  editOf,
  type CompanyListProps,
} from './company-edit-controls'
import { CompanyRowActions } from './company-row-actions'
import { DataTable } from '@/components/ui/responsive-table'

const td = 'px-4 py-3 align-top'

/** SPEC §2 Companies table (1024 px and up); the row being edited holds the inline form. */
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
    </DataTable>
  )
}
