import { COMPANY_MESSAGES, type Company, type SalesUser } from '@portal/shared'
import { Button } from '@/components/ui/button'
import { controlClass } from '@/components/ui/field'
import { CompanyRowActions } from './company-row-actions'

/** The inline edit of one company (docs/product-rules.md §2): a name and an account manager chosen by email. */
export type CompanyDraft = { id: string; name: string; managerEmail: string; error: string | null }

export const draftOf = (company: Company): CompanyDraft => ({
  id: company.id,
  name: company.name,
  managerEmail: company.accountManagerEmail ?? '',
  error: null,
})

export type EditProps = {
  draft: CompanyDraft
  salesUsers: readonly SalesUser[]
  saving: boolean
  onChange: (draft: CompanyDraft) => void
  onSave: () => void
  onCancel: () => void
}

/** What the companies table and cards are given: the list, and the row being edited if any. */
export type CompanyListProps = {
  companies: readonly Company[]
  showManager: boolean
  canEdit: boolean
  editing: Omit<EditProps, 'draft'> & { draft: EditProps['draft'] | null }
  onEdit: (company: Company) => void
}

/** The edit props of `company` when it is the one being edited, else null. */
export function editOf(editing: CompanyListProps['editing'], company: Company): EditProps | null {
  const { draft } = editing
  return draft?.id === company.id ? { ...editing, draft } : null
}

export function NameInput({ draft, onChange }: Pick<EditProps, 'draft' | 'onChange'>) {
  const errorId = `company-name-error-${draft.id}`
  return (
    <div className="flex flex-col gap-1">
      <input
        aria-label="Company name"
        value={draft.name}
        onChange={(event) => onChange({ ...draft, name: event.target.value, error: null })}
        aria-invalid={draft.error ? true : undefined}
        aria-describedby={draft.error ? errorId : undefined}
        className={controlClass}
      />
      {draft.error && (
        <p id={errorId} role="alert" className="text-xs font-medium text-red-700">
          {draft.error}
        </p>
      )}
    </div>
  )
}

/** docs/product-rules.md §2: sales users only, each shown with name and email, plus No Account Manager. */
export function ManagerSelect({ draft, salesUsers, onChange }: Pick<EditProps, 'draft' | 'salesUsers' | 'onChange'>) {
  const known = salesUsers.some((u) => u.email === draft.managerEmail)
  return (
    <select
      aria-label="Account manager"
      value={draft.managerEmail}
      onChange={(event) => onChange({ ...draft, managerEmail: event.target.value })}
      className={controlClass}
    >
      <option value="">{COMPANY_MESSAGES.noManager}</option>
      {/* A manager no longer in the list (suspended) stays selectable until changed. */}
      {draft.managerEmail && !known && <option value={draft.managerEmail}>{draft.managerEmail}</option>}
      {salesUsers.map((user) => (
        <option key={user.id} value={user.email}>
          {`${user.name} (${user.email})`}
        </option>
      ))}
    </select>
  )
}

export function EditActions({ saving, onSave, onCancel }: Pick<EditProps, 'saving' | 'onSave' | 'onCancel'>) {
  return (
    <div className="flex gap-2">
      <Button size="sm" onClick={onSave} disabled={saving}>
        {saving ? 'Saving...' : 'Save'}
      </Button>
      <Button size="sm" variant="secondary" onClick={onCancel} disabled={saving}>
        Cancel
      </Button>
    </div>
  )
}

/** Account manager as shown to admins: name and email, or No Account Manager. */
export function ManagerCell({ company }: { company: Company }) {
  if (!company.accountManagerId && !company.accountManagerEmail) {
    return <span className="text-slate-500">{COMPANY_MESSAGES.noManager}</span>
  }
  return (
    <div>
      <div className="text-slate-900">{company.accountManagerName ?? company.accountManagerEmail}</div>
      {company.accountManagerName && <div className="text-xs text-slate-600">{company.accountManagerEmail}</div>}
    </div>
  )
}

/** The account manager: the select while the company is being edited, else who it is. */
export function ManagerField({ company, edit }: { company: Company; edit: EditProps | null }) {
  return edit ? <ManagerSelect {...edit} /> : <ManagerCell company={company} />
}

/** Save and Cancel while the company is being edited, else its row actions. */
export function CompanyActions({
  company,
  edit,
  canEdit,
  onEdit,
}: Pick<CompanyListProps, 'canEdit' | 'onEdit'> & { company: Company; edit: EditProps | null }) {
  return edit ? <EditActions {...edit} /> : <CompanyRowActions company={company} canEdit={canEdit} onEdit={onEdit} />
}
