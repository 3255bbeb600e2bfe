/** Companies rules (docs/product-rules.md §2 Companies, §5, §8), shared by the companies screens and the server. */

export const COMPANY_MESSAGES = {
  nameEmpty: 'Company name cannot be empty',
  notFound: 'Company not found',
  managerNotSales: 'The account manager must be an active sales user.',
  nothingToUpdate: 'Nothing to update.',
  fetchFailed: 'Error fetching companies',
  updateFailed: 'Error updating company',
  renameFailed: 'Error updating company name',
  syncFailed: 'Error syncing companies',
  detailFailed: 'Error fetching company details',
  loadingDetail: 'Loading company details...',
  noManager: 'No Account Manager',
} as const

export const COMPANY_NAME_MAX = 200

/** docs/product-rules.md §5: a company name must not be empty once trimmed. */
export function companyNameError(name: string | null | undefined): string | null {
  if (!name?.trim()) return COMPANY_MESSAGES.nameEmpty
  if (name.trim().length > COMPANY_NAME_MAX) return `Company name must be at most ${COMPANY_NAME_MAX} characters.`
  return null
}

/** docs/product-rules.md §2: search by name, account manager name or email, or id (case-insensitive). */
export function companyMatches(
  company: { id: string; name: string; accountManagerName?: string | null; accountManagerEmail?: string | null },
  term: string,
): boolean {
  const needle = term.trim().toLowerCase()
  if (!needle) return true
  return [company.name, company.id, company.accountManagerName, company.accountManagerEmail].some((field) =>
    field?.toLowerCase().includes(needle),
  )
}

/** docs/product-rules.md §2: "Showing X of Y companies", word for word (no singular form: product-rules gives none). */
export function showingCompaniesText(shown: number, total: number): string {
  return `Showing ${shown} of ${total} companies`
}
