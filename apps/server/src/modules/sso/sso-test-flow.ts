import { SSO_MESSAGES as M, type SsoFlowTestResult } from '@portal/shared'
import type { Actor } from '../../lib/actor'
import { AppError } from '../../lib/app-error'
import { refusalOf } from './oidc'
import type { Identity, SsoContext } from './sso-context'
import type { SsoSignIn } from './sso-sign-in'
import type { SsoConnectionRow } from './sso.repository'

/** The flow's own values in an ID token: they say nothing about the user. */
const FLOW_CLAIMS = new Set(['nonce', 'at_hash', 'c_hash', 's_hash'])

/**
 * An admin's "Test connection" that runs the real sign-in: the admin signs in at the company's
 * provider, and sees what it sent (the ID token's claims or the assertion's attributes, never a
 * token) and the e-mail and name the portal reads from it. Nobody is signed in or created.
 */
export function createSsoTestFlow(ctx: SsoContext) {
  const { sso } = ctx

  /** Where the admin sees the outcome: the company's page, or Settings for the staff connection. */
  const resultPath = (companyId: string | null, flowId: string) =>
    companyId === null
      ? `/settings?sso_test=${encodeURIComponent(flowId)}`
      : `/admin/companies/${encodeURIComponent(companyId)}?sso_test=${encodeURIComponent(flowId)}`

  return {
    /** The provider answered a test flow (or was refused): keeps the outcome, sends the admin back. */
    async finished(
      flow: { id: string },
      connection: SsoConnectionRow,
      outcome: { attributes: Record<string, unknown>; identity: Identity } | { refusal: string },
    ): Promise<string> {
      const protocol = connection.protocol as 'oidc' | 'saml'
      const base = { protocol, testedAt: new Date().toISOString() }
      let result: SsoFlowTestResult
      if ('refusal' in outcome) {
        result = {
          ...base,
          ok: false,
          message: `The provider's answer was refused: ${outcome.refusal}.`,
          claims: {},
          email: null,
          name: null,
        }
      } else {
        const claims = Object.fromEntries(Object.entries(outcome.attributes).filter(([k]) => !FLOW_CLAIMS.has(k)))
        const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null)
        const email = text(outcome.identity.email)
        const where =
          protocol === 'oidc'
            ? `claim "${connection.oidcEmailClaim ?? 'email'}"`
            : `attribute "${ctx.samlSettingsOf(connection)?.emailAttribute ?? 'email'}"`
        result = {
          ...base,
          ok: email !== null,
          message: email
            ? 'The provider signed you in and sent what is shown below. Nobody was signed in to the portal.'
            : `The provider signed you in but sent no e-mail in the ${where}: a sign-in would be refused.`,
          claims,
          email,
          name: text(outcome.identity.name),
        }
      }
      await sso.saveTestResult(flow.id, result)
      return resultPath(connection.companyId, flow.id)
    },

    /** Starts the admin's test sign-in at the company's (null: the staff connection's) provider. */
    async start(signIn: Pick<SsoSignIn, 'startFlow'>, companyId: string | null, actor: Actor | null) {
      if (companyId !== null) await ctx.requireCompany(companyId)
      const connection = companyId === null ? await sso.findStaffConnection() : await sso.findConnection(companyId)
      if (!connection) throw new AppError('NOT_FOUND', companyId === null ? M.staffNotConfigured : M.notConfigured)
      if (!actor?.id) throw new AppError('UNAUTHENTICATED')
      try {
        return await signIn.startFlow(connection, actor.id)
      } catch (error) {
        throw new AppError('UPSTREAM_FAILED', `The provider could not be reached: ${refusalOf(error)}.`)
      }
    },

    /** A finished test's outcome, for the admin who ran it. */
    async result(companyId: string | null, flowId: string, actor: Actor | null): Promise<SsoFlowTestResult> {
      const missing = new AppError('NOT_FOUND', 'There is no finished test with this id. Run the test again.')
      if (!actor?.id || !/^[0-9a-f-]{36}$/i.test(flowId)) throw missing
      const row = await sso.findTestResult(flowId, companyId, actor.id)
      if (!row?.result) throw missing
      return row.result as SsoFlowTestResult
    },
  }
}
