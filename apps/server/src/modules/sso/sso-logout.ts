import { randomBytes } from 'node:crypto'
import type { SsoLogoutResponse } from '@portal/shared'
import type { ClientInfo } from '../auth/auth.service'
import { endSessionUrl } from './oidc'
import { SamlRefusal } from './saml'
import { checkLogoutResponse, logoutRequestUrl } from './saml-logout'
import { FLOW_MINUTES, type SsoContext } from './sso-context'

/**
 * Signing out of a single sign-on session: the portal session ends, and where the provider
 * offers it, the browser is sent to end the provider's session too (OIDC's end-session
 * endpoint, SAML's single logout), coming back to the sign-in page.
 */
export function createSsoLogout(ctx: SsoContext) {
  const { sso, auth, log } = ctx

  return {
    /** Ends the portal session; where the provider offers it, the address that ends its own. */
    async logout(refreshToken: string, client: ClientInfo): Promise<SsoLogoutResponse> {
      let url: string | null = null
      const ended = await auth.revoke(refreshToken, client, async (sessionId, tx) => {
        // SAML's LogoutRequest is built here (no network): its id is kept with the session's end,
        // and the LOGOUT entry says the provider was asked to end its session.
        const link = await sso.linkOfSession(sessionId, tx)
        const connection = link?.connection
        const saml = connection?.protocol === 'saml' ? ctx.samlSettingsOf(connection) : null
        if (!connection?.companyId || !saml?.sloUrl || !link?.samlSubject) return undefined
        const requestId = `_${randomBytes(20).toString('hex')}`
        url = await logoutRequestUrl(saml, ctx.spOf(connection.companyId), link.samlSubject, requestId)
        if (!url) return undefined
        await sso.insertFlow(
          {
            connectionId: connection.id,
            state: requestId,
            nonce: '',
            codeVerifier: '',
            expiresAt: new Date(Date.now() + FLOW_MINUTES * 60_000),
            purpose: 'logout',
          },
          tx,
        )
        return { method: 'saml', providerLogout: 'requested' }
      })
      if (ended && !url) {
        const connection = (await sso.linkOfSession(ended.sessionId))?.connection
        if (connection?.protocol === 'oidc') {
          try {
            url = endSessionUrl(await ctx.providerOf(connection), `${ctx.config.publicUrl}/login`)
          } catch (error) {
            log.warn({ err: error }, 'the provider could not be asked for its end-session address')
          }
        }
      }
      return { message: 'Signed out', endSessionUrl: url }
    },

    /**
     * The identity provider's LogoutResponse, posted to the company's single logout address:
     * checked (see `checkLogoutResponse`) and matched to a LogoutRequest this portal sent for
     * this connection, used once and in time; the browser then goes to the sign-in page. The
     * portal session ended already when the request was sent: a refusal is logged with its
     * reason and the sign-in page says the provider did not confirm its sign-out.
     */
    async samlLogoutResponse(companyId: string, samlResponse: string): Promise<string> {
      const connection = await ctx.sso.findConnection(companyId)
      const saml = connection?.protocol === 'saml' ? ctx.samlSettingsOf(connection) : null
      try {
        if (!connection || !saml) throw new SamlRefusal('no SAML connection')
        const inResponseTo = await checkLogoutResponse(samlResponse, saml, ctx.spOf(companyId))
        const flow = inResponseTo.length <= 100 ? await sso.findFlowByState(inResponseTo) : null
        if (!flow || flow.connectionId !== connection.id || flow.purpose !== 'logout') {
          throw new SamlRefusal('unknown InResponseTo')
        }
        if (!(await sso.consumeFlow(flow.id))) throw new SamlRefusal('sign-out answer already used')
        if (flow.expiresAt <= new Date()) throw new SamlRefusal('sign-out request expired')
        return '/login'
      } catch (error) {
        if (!(error instanceof SamlRefusal)) throw error
        // The portal session ended already; the page says the provider did not confirm its end.
        log.warn({ companyId: companyId.slice(0, 200), reason: error.message }, 'SAML LogoutResponse refused')
        return '/login?sso_error=logout_failed'
      }
    },
  }
}
