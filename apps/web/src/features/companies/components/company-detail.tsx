import { COMPANY_MESSAGES, can, companyNameError, companyPackagesFileName, type Role } from '@portal/shared'
import { ArrowLeft, Pencil } from 'lucide-react'
import { useState } from 'react'
import { Banner } from '@/components/ui/banner'
import { Button } from '@/components/ui/button'
import { DownloadButton } from '@/components/ui/download-button'
import { controlClass } from '@/components/ui/field'
import { Link } from '@/components/ui/link'
import { Spinner } from '@/components/ui/spinner'
import { APP_NAME } from '@/config/app'
import { paths } from '@/config/paths'
import { ApiError, errorMessage } from '@/lib/api-error'
import { useCompany } from '../api/get-company'
import { useUpdateCompany } from '../api/update-company'
import { CompanyDetailTabs } from './company-detail-tabs'

/** docs/product-rules.md §2 Company detail: back link, the name (admins edit it), the id, and three tabs. */
export function CompanyDetailView({ id, role }: { id: string; role: Role }) {
  const { data: company, error, isPending } = useCompany(id)
  const update = useUpdateCompany()
  const [draft, setDraft] = useState<string | null>(null)
  const [nameError, setNameError] = useState<string | null>(null)
  const canEdit = can(role, 'company.update')
  const notFound = error instanceof ApiError && error.status === 404

  const save = () => {
    if (draft === null) return
    const invalid = companyNameError(draft)
    if (invalid) return setNameError(invalid)
    setNameError(null)
    // docs/product-rules.md §7: the detail screen sends the name only.
    update.mutate(
      { id, body: { name: draft.trim() } },
      {
        onSuccess: () => setDraft(null),
        onError: (failure) => setNameError(errorMessage(failure, COMPANY_MESSAGES.renameFailed)),
      },
    )
  }

  return (
    <>
      <title>{`${company?.name ?? 'Company'} | ${APP_NAME}`}</title>
      <div className="mx-auto w-full max-w-7xl space-y-6">
        <Link to={paths.companies.getHref()} className="inline-flex items-center gap-1 text-sm">
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to Companies
        </Link>
        {isPending ? (
          <Spinner label={COMPANY_MESSAGES.loadingDetail} />
        ) : notFound ? (
          <h1 className="text-2xl font-semibold text-slate-900">{COMPANY_MESSAGES.notFound}</h1>
        ) : error || !company ? (
          <Banner variant="error">{errorMessage(error, COMPANY_MESSAGES.detailFailed)}</Banner>
        ) : (
          <>
            <header className="space-y-2">
              {draft === null ? (
                <div className="flex flex-wrap items-center gap-3">
                  <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{company.name}</h1>
                  {canEdit && (
                    <Button size="sm" variant="ghost" onClick={() => setDraft(company.name)}>
                      <Pencil aria-hidden="true" className="size-4" />
                      Edit name
                    </Button>
                  )}
                </div>
              ) : (
                <div className="flex flex-wrap items-start gap-2">
                  <div className="flex flex-col gap-1">
                    <input
                      aria-label="Company name"
                      value={draft}
                      onChange={(event) => setDraft(event.target.value)}
                      className={`${controlClass} min-w-72`}
                    />
                  </div>
                  <Button size="sm" className="mt-1" onClick={save} disabled={update.isPending}>
                    {update.isPending ? 'Saving...' : 'Save'}
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    className="mt-1"
                    disabled={update.isPending}
                    onClick={() => {
                      setDraft(null)
                      setNameError(null)
                    }}
                  >
                    Cancel
                  </Button>
                </div>
              )}
              {nameError && <Banner variant="error">{nameError}</Banner>}
              <p className="text-sm text-slate-600">
                ID: <span className="font-mono">{company.id}</span>
              </p>
              {/* Every package of the company in one zip. */}
              {can(role, 'dispatch.download') && (
                <DownloadButton
                  path="/api/dispatches/packages"
                  params={{ companyId: company.id }}
                  fileName={companyPackagesFileName(company.name)}
                  label="Download all packages"
                />
              )}
            </header>
            <CompanyDetailTabs company={company} role={role} />
          </>
        )}
      </div>
    </>
  )
}
