import { domainError, normaliseDomain, SSO_DOMAINS_MAX, SSO_MESSAGES as M } from '@portal/shared'
import { AppError } from '../../lib/app-error'
import { type AdminContext, invalid, isUniqueViolation, type SsoContext } from './sso-context'

/**
 * The domains of a company (or, null, of the vendor's staff) become exactly these; a domain of
 * another owner is a 409.
 */
export function createReplaceDomains(ctx: SsoContext) {
  const { db, sso } = ctx
  return async function replaceDomainsOf(companyId: string | null, input: string[], admin: AdminContext) {
    const domains = [...new Set(input.map(normaliseDomain).filter(Boolean))].sort()
    const badAt = input.findIndex((d) => normaliseDomain(d) && domainError(d))
    if (badAt >= 0) {
      // Named by its place in the list sent, as every other field error names its item.
      const bad = normaliseDomain(input[badAt]!)
      throw invalid(`domains/${badAt}`, `${M.domainInvalid} "${bad.slice(0, 100)}" is not one.`)
    }
    if (domains.length > SSO_DOMAINS_MAX) throw invalid('domains', M.tooManyDomains)
    const taken = await sso.domainsOfOthers(domains, companyId)
    const conflict = (domain: string, company: string) =>
      new AppError(
        'CONFLICT',
        `The domain ${domain} already belongs to ${company}. A domain can belong to one company only.`,
        {
          details: [{ field: 'domains', message: `${domain} belongs to ${company}` }],
        },
      )
    if (taken[0]) throw conflict(taken[0].domain, taken[0].companyName)
    const before = await sso.domains(companyId)
    try {
      await db.transaction(async (tx) => {
        await sso.replaceDomains(companyId, domains, tx)
        // Inserted domains that another company took meanwhile were skipped: refuse them.
        const raced = await sso.domainsOfOthers(domains, companyId, tx)
        if (raced[0]) throw conflict(raced[0].domain, raced[0].companyName)
        await ctx.recordAdmin(
          'SSO_DOMAINS_UPDATED',
          admin,
          { companyId, ...(companyId === null ? { staff: true } : {}), before, after: domains },
          tx,
        )
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(domains.join(', '), 'another company')
      throw error
    }
  }
}
