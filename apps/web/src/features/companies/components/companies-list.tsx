import {
  COMPANY_MESSAGES,
  can,
  companyMatches,
  companyNameError,
  showingCompaniesText,
  type Company,
  type Role,
} from '@portal/shared'
import { useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { EmptyState } from '@/components/ui/empty-state'
import { SearchInput } from '@/components/ui/search-input'
import { Spinner } from '@/components/ui/spinner'
import { useIsWideScreen } from '@/components/ui/use-is-wide-screen'
import { errorMessage } from '@/lib/api-error'
import { useCompanies } from '../api/get-companies'
import { useSalesUsers } from '../api/get-sales-users'
import { useUpdateCompany } from '../api/update-company'
import { CompanyCards } from './company-cards'
import { draftOf, type CompanyDraft } from './company-edit-controls'
import { CompanySync } from './company-sync'
import { CompanyTable } from './company-table'

/** docs/product-rules.md §2 Companies: admins view, edit and sync; sales view only (the server enforces the same). */
export function CompaniesList({ role }: { role: Role }) {
  const canEdit = can(role, 'company.update')
  const canSync = can(role, 'company.sync')
  const wide = useIsWideScreen()
  const { data, error, isPending } = useCompanies()
  const salesUsers = useSalesUsers(canEdit)
  const update = useUpdateCompany()
  const [search, setSearch] = useState('')
  const [draft, setDraft] = useState<CompanyDraft | null>(null)
  const [updateError, setUpdateError] = useState<string | null>(null)

  const companies = data ?? []
  const shown = companies.filter((company) => companyMatches(company, search))

  const save = () => {
    if (!draft) return
    const invalid = companyNameError(draft.name)
    if (invalid) return setDraft({ ...draft, error: invalid })
    const manager = salesUsers.data?.find((u) => u.email === draft.managerEmail)
    setUpdateError(null)
    update.mutate(
      {
        id: draft.id,
        body: {
          name: draft.name.trim(),
          accountManagerName: draft.managerEmail ? (manager?.name ?? null) : null,
          accountManagerEmail: draft.managerEmail || null,
        },
      },
      {
        onSuccess: () => setDraft(null),
        onError: (failure) => setUpdateError(errorMessage(failure, COMPANY_MESSAGES.updateFailed)),
      },
    )
  }

  const editing = {
    draft,
    salesUsers: salesUsers.data ?? [],
    saving: update.isPending,
    onChange: setDraft,
    onSave: save,
    onCancel: () => {
      setDraft(null)
      setUpdateError(null)
    },
  }
  const onEdit = (company: Company) => {
    setUpdateError(null)
    setDraft(draftOf(company))
  }
  const listProps = { companies: shown, showManager: canEdit, canEdit, editing, onEdit }

  return (
    <div className="space-y-6">
      {canSync && <CompanySync />}
      <div className="max-w-md">
        <SearchInput
          label="Search companies"
          labelHidden
          value={search}
          onChange={setSearch}
          placeholder={canEdit ? 'Search by name, account manager or ID...' : 'Search by name or ID...'}
        />
      </div>
      {error && <Banner variant="error">{errorMessage(error, COMPANY_MESSAGES.fetchFailed)}</Banner>}
      {updateError && <Banner variant="error">{updateError}</Banner>}
      {isPending ? (
        <Spinner label="Loading companies..." />
      ) : shown.length === 0 ? (
        data && <EmptyState title="No companies found" description="Try adjusting your search." />
      ) : wide ? (
        <CompanyTable {...listProps} />
      ) : (
        <CompanyCards {...listProps} />
      )}
      {data && (
        <p className="text-sm text-slate-700" aria-live="polite">
          {showingCompaniesText(shown.length, companies.length)}
        </p>
      )}
    </div>
  )
}
