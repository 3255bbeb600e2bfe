import { CompanyActions, ManagerField, NameInput, editOf, type CompanyListProps } from './company-edit-controls'

/** docs/product-rules.md §2: below 1024 px the companies are cards, with the same inline edit. */
export function CompanyCards({ companies, showManager, canEdit, editing, onEdit }: CompanyListProps) {
  return (
    <ul aria-label="Companies" className="grid gap-4 sm:grid-cols-2">
      {companies.map((company) => {
        const edit = editOf(editing, company)
        return (
          <li key={company.id} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-xs">
            {edit ? (
              <NameInput draft={edit.draft} onChange={edit.onChange} />
            ) : (
              <h2 className="font-medium text-slate-900">{company.name}</h2>
            )}
            {showManager && (
              <div className="text-sm">
                <span className="text-slate-600">Account Manager: </span>
                <ManagerField company={company} edit={edit} />
              </div>
            )}
            {/* Subgrid rows: a label that wraps ("Course Requests") keeps the three counts on one line. */}
            <dl className="grid grid-cols-3 grid-rows-[auto_auto] gap-x-2 text-sm">
              <div className="row-span-2 grid grid-rows-subgrid">
                <dt className="text-slate-600">Users</dt>
                <dd className="self-end font-medium text-slate-900 tabular-nums">{company.counts.users}</dd>
              </div>
              <div className="row-span-2 grid grid-rows-subgrid">
                <dt className="text-slate-600">Course Requests</dt>
                <dd className="self-end font-medium text-slate-900 tabular-nums">{company.counts.courseRequests}</dd>
              </div>
              <div className="row-span-2 grid grid-rows-subgrid">
                <dt className="text-slate-600">Dispatches</dt>
                <dd className="self-end font-medium text-slate-900 tabular-nums">{company.counts.dispatches}</dd>
              </div>
            </dl>
            <CompanyActions company={company} edit={edit} canEdit={canEdit} onEdit={onEdit} />
          </li>
        )
      })}
    </ul>
  )
}
