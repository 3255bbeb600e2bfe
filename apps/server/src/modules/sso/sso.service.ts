import { ownCompanyOnly, type Role, SSO_MESSAGES as M, type SsoDemo } from '@portal/shared'
import type { Actor } from '../../lib/actor'
import { createSsoAdmin } from './sso-admin'
import { createSsoContext, type SsoDeps } from './sso-context'
import { createSsoLogout } from './sso-logout'
import { createSsoSignIn, STAFF_START_PATH } from './sso-sign-in'
import { createSsoStaff } from './sso-staff'
import { createSsoTestFlow } from './sso-test-flow'
import type { SsoRepository } from './sso.repository'

export type { AdminContext, SsoDemoInfo } from './sso-context'
export { STAFF_START_PATH } from './sso-sign-in'

/**
 * "Single sign-on required": a company's client users may not sign in with a password, except
 * the ones an admin named (a contractor without an account at the company's provider). Built
 * from the repository alone, so the auth service (made before this module's service) can ask.
 */
export function createSsoPasswordRule(repository: SsoRepository) {
  return async (user: { id: string; role: string; companyId: string | null }): Promise<string | null> => {
    // A company's own users are the ones its rules govern (staff are never a company's).
    if (!ownCompanyOnly(user.role as Role) || !user.companyId) return null
    const connection = await repository.findConnection(user.companyId)
    if (!connection?.enabled || !connection.ssoRequired) return null
    if (await repository.hasPasswordException(user.id, user.companyId)) return null
    const company = await repository.findCompany(user.companyId)
    return M.ssoRequired(company?.name ?? 'Your company')
  }
}

/**
 * Single sign-on: a company's connection and rules (sso-admin), the browser's sign-in through
 * it (sso-sign-in, sso-users), an admin's test sign-in (sso-test-flow) and the vendor's staff
 * connection (sso-staff), sharing secrets, discovery and addresses (sso-context).
 */
export function createSsoService(deps: SsoDeps) {
  const ctx = createSsoContext(deps)
  const testFlow = createSsoTestFlow(ctx)
  const signIn = createSsoSignIn(ctx, testFlow.finished)
  const { startFlow, ...browser } = signIn

  return {
    ...createSsoAdmin(ctx),
    ...browser,
    ...createSsoLogout(ctx),
    ...createSsoStaff(ctx),

    /** An admin's test sign-in at the company's provider: where to send the admin's browser. */
    startTest: (companyId: string, actor: Actor | null) => testFlow.start({ startFlow }, companyId, actor),
    testResult: (companyId: string, flowId: string, actor: Actor | null) => testFlow.result(companyId, flowId, actor),
    /** The same for the vendor's staff connection (the outcome shows its group claim). */
    startStaffTest: (actor: Actor | null) => testFlow.start({ startFlow }, null, actor),
    staffTestResult: (flowId: string, actor: Actor | null) => testFlow.result(null, flowId, actor),

    async demo(): Promise<SsoDemo> {
      const demo = deps.demo
      const company = demo ? await signIn.lookup(`someone@${demo.domain}`) : null
      if (!demo || !company?.sso) {
        return { companyId: null, companyName: null, accounts: [], password: null, staff: null }
      }
      const staff = await deps.repositories.sso.findStaffConnection()
      return {
        companyId: company.companyId,
        companyName: company.companyName,
        accounts: demo.accounts,
        // oidc-provider's development sign-in page takes any password.
        password: 'any password',
        staff:
          staff?.enabled && demo.staffAccounts.length > 0
            ? { name: staff.displayName ?? 'staff', startPath: STAFF_START_PATH, accounts: demo.staffAccounts }
            : null,
      }
    },
  }
}
export type SsoService = ReturnType<typeof createSsoService>
