import { randomBytes } from 'node:crypto'
import { emailDomain, SSO_DEFAULT_SCOPES, type SignInResponse, type SsoLookup } from '@portal/shared'
import { AppError } from '../../lib/app-error'
import type { ClientInfo } from '../auth/auth.service'
import { providerSecondFactors } from '../mfa/mfa.gate'
import { authorizationUrl, finishFlow, refusalOf } from './oidc'
import { authnRequestUrl, checkResponse, SamlRefusal, serviceProviderMetadata, unverifiedInResponseTo } from './saml'
import { EXPIRED_GRACE_MS, FLOW_MINUTES, hash, type Identity, type SsoContext, SsoRefusal } from './sso-context'
import { createSsoUsers, oidcIdentity, samlIdentity } from './sso-users'
import type { SamlSubject, SsoConnectionRow } from './sso.repository'

/** The one-time code lives just long enough for the sign-in page to exchange it. */
const HANDOFF_SECONDS = 60

/** Where the browser starts the vendor's staff sign-in. */
export const STAFF_START_PATH = '/api/auth/sso/staff/start'

/** A started flow, from either protocol's answer: which connection, and whether an admin's test. */
interface FinishedFlow {
  id: string
  testedBy: string | null
}

/**
 * The browser's way through single sign-on: the lookup on the sign-in screen, the start, the
 * provider's answer (OIDC callback or SAML ACS), the one-time code and the sign-out.
 */
export function createSsoSignIn(
  ctx: SsoContext,
  /** An admin's test flow ended: keeps what the provider sent and gives the address to return to. */
  testFinished: (
    flow: FinishedFlow,
    connection: SsoConnectionRow,
    outcome: { attributes: Record<string, unknown>; identity: Identity } | { refusal: string },
  ) => Promise<string>,
) {
  const { sso, users, auth, log, redirectUri } = ctx
  const { userFor } = createSsoUsers(ctx)

  /**
   * The signed-in user's one-time code for the sign-in page, in the address fragment: the
   * browser never sends a fragment to a server, so no log or proxy sees it.
   */
  async function handOff(
    connection: SsoConnectionRow,
    identity: Identity,
    amr?: string[],
    samlSubject: SamlSubject | null = null,
  ): Promise<string> {
    const { user, created } = await userFor(connection, identity)
    const code = randomBytes(32).toString('base64url')
    await sso.insertHandoff({
      codeHash: hash(code),
      userId: user.id,
      connectionId: connection.id,
      expiresAt: new Date(Date.now() + HANDOFF_SECONDS * 1000),
      amr: amr?.length ? amr : null,
      samlSubject,
    })
    if (created) log.info({ userId: user.id, companyId: connection.companyId }, 'user created on first single sign-on')
    return `/login#sso_code=${code}${created ? '&created=1' : ''}`
  }

  /**
   * Starts a flow at the connection's provider: the address to send the browser to and the
   * flow's id. `testedBy`: an admin's test of the connection, which signs nobody in.
   */
  async function startFlow(connection: SsoConnectionRow, testedBy: string | null) {
    await sso.deleteExpired(new Date(Date.now() - EXPIRED_GRACE_MS))
    const expiresAt = new Date(Date.now() + FLOW_MINUTES * 60_000)
    const saml = connection.protocol === 'saml' ? ctx.samlSettingsOf(connection) : null
    if (saml && connection.companyId !== null) {
      // The AuthnRequest's id is the flow's state: the identity provider's answer names it
      // (InResponseTo), since its POST comes from another site without this site's cookies.
      const requestId = `_${randomBytes(20).toString('hex')}`
      const location = await authnRequestUrl(saml, ctx.spOf(connection.companyId), requestId)
      const flowId = await sso.insertFlow({
        connectionId: connection.id,
        state: requestId,
        nonce: '',
        codeVerifier: '',
        expiresAt,
        testedBy,
      })
      return { location, flowId }
    }
    const config = await ctx.providerOf(connection)
    const flow = await authorizationUrl(config, redirectUri, connection.oidcScopes ?? SSO_DEFAULT_SCOPES)
    const flowId = await sso.insertFlow({
      connectionId: connection.id,
      state: flow.state,
      nonce: flow.nonce,
      codeVerifier: flow.codeVerifier,
      expiresAt,
      testedBy,
    })
    return { location: flow.url.toString(), flowId }
  }

  /** The admin's open test flow of this connection a SAML response names, used up here; else null. */
  async function testFlowOf(connection: SsoConnectionRow, requestId: string | null) {
    const flow = requestId ? await sso.findFlowByState(requestId) : null
    if (!flow?.testedBy || flow.connectionId !== connection.id || flow.expiresAt <= new Date()) return null
    return (await sso.consumeFlow(flow.id)) ? flow : null
  }

  /** Public: only whether an e-mail's domain signs in through a connection, and the company's name. */
  async function lookup(email: string): Promise<SsoLookup> {
    const domain = emailDomain(email)
    const owner = domain ? await sso.ownerOfDomain(domain) : null
    if (!owner?.connectionId || !owner.enabled || owner.removedAt) {
      return { sso: false, companyId: null, companyName: null, startPath: null }
    }
    if (owner.companyId === null) {
      return { sso: true, companyId: null, companyName: owner.staffName ?? 'staff', startPath: STAFF_START_PATH }
    }
    return {
      sso: true,
      companyId: owner.companyId,
      companyName: owner.companyName,
      startPath: `/api/auth/sso/${encodeURIComponent(owner.companyId)}/start`,
    }
  }

  return {
    lookup,
    startFlow,

    /** Starts a sign-in: the provider's address and the flow's id (kept in a cookie). */
    async start(companyId: string | null, client: ClientInfo): Promise<{ location: string; flowId: string | null }> {
      // Null: the vendor's staff connection.
      const connection = companyId === null ? await sso.findStaffConnection() : await sso.findConnection(companyId)
      const saml = connection?.protocol === 'saml' ? ctx.samlSettingsOf(connection) : null
      if (!connection?.enabled || (connection.protocol !== 'oidc' && !saml)) {
        const refusal = new SsoRefusal('unavailable', 'no connection')
        return { location: await ctx.refuse(refusal, client, companyId?.slice(0, 200) ?? null), flowId: null }
      }
      try {
        return await startFlow(connection, null)
      } catch (error) {
        const refusal = new SsoRefusal('provider', `discovery failed: ${refusalOf(error)}`)
        return { location: await ctx.refuse(refusal, client, companyId), flowId: null }
      }
    },

    /**
     * The provider's answer. The flow comes from the browser's cookie (the one that started
     * it), the state must match it, the flow is used once and in time; then openid-client
     * checks the code exchange and the ID token, and the claims are mapped to a portal user.
     * Every refusal is logged and sends the browser back to the sign-in page with a code.
     */
    async callback(query: URLSearchParams, flowId: string | null, client: ClientInfo): Promise<string> {
      // The address the provider sent the browser to: its redirect_uri goes with the code exchange.
      const callbackUrl = new URL(redirectUri)
      callbackUrl.search = query.toString()
      let companyId: string | null = null
      try {
        const flow = flowId && /^[0-9a-f-]{36}$/i.test(flowId) ? await sso.findFlow(flowId) : null
        if (!flow) throw new SsoRefusal('failed', 'callback without a started flow')
        const connection = await sso.findConnectionById(flow.connectionId)
        if (!connection) throw new SsoRefusal('unavailable', 'connection removed')
        companyId = connection.companyId
        if (callbackUrl.searchParams.get('state') !== flow.state) throw new SsoRefusal('failed', 'state mismatch')
        if (!(await sso.consumeFlow(flow.id))) throw new SsoRefusal('expired', 'flow already used')
        if (flow.expiresAt <= new Date()) throw new SsoRefusal('expired', 'flow expired')
        const providerError = callbackUrl.searchParams.get('error')
        let claims: Record<string, unknown>
        try {
          if (providerError) throw new SsoRefusal('failed', `provider error ${providerError.slice(0, 60)}`)
          claims = await finishFlow(await ctx.providerOf(connection), callbackUrl, flow)
        } catch (error) {
          const refusal =
            error instanceof SsoRefusal
              ? error
              : new SsoRefusal('failed', `id token or code refused: ${refusalOf(error)}`)
          if (flow.testedBy) return await testFinished(flow, connection, { refusal: refusal.reason })
          throw refusal
        }
        const identity = oidcIdentity(connection, claims)
        if (flow.testedBy) return await testFinished(flow, connection, { attributes: claims, identity })
        return await handOff(connection, identity, providerSecondFactors(claims.amr))
      } catch (error) {
        if (error instanceof SsoRefusal) return ctx.refuse(error, client, companyId)
        throw error
      }
    },

    /** This portal's SAML service-provider metadata for one company (null: no such company). */
    async samlMetadata(companyId: string): Promise<string | null> {
      if (!(await sso.findCompany(companyId))) return null
      return serviceProviderMetadata(ctx.spOf(companyId))
    },

    /**
     * The identity provider's POST to the company's ACS. The response is checked (see
     * `checkResponse`), its assertion id accepted once, and it must answer a flow this portal
     * started for this connection, unless the connection accepts unsolicited responses. Every
     * refusal is logged with its reason and sends the browser back to the sign-in page.
     */
    async samlAcs(companyId: string, samlResponse: string, client: ClientInfo): Promise<string> {
      const connection = await sso.findConnection(companyId)
      const saml = connection?.protocol === 'saml' ? ctx.samlSettingsOf(connection) : null
      const known = connection ? companyId : null
      try {
        if (!connection?.enabled || !saml) throw new SsoRefusal('unavailable', 'no SAML connection')
        let checked
        try {
          checked = await checkResponse(samlResponse, saml, ctx.spOf(companyId))
        } catch (error) {
          if (!(error instanceof SamlRefusal)) throw error
          // An admin's test sign-in shows the refusal on the company's page (and is logged as well).
          const test = await testFlowOf(connection, unverifiedInResponseTo(samlResponse))
          if (test) {
            await ctx.refuse(new SsoRefusal('failed', error.message), client, known, 'saml')
            return await testFinished(test, connection, { refusal: error.message })
          }
          throw new SsoRefusal('failed', error.message)
        }
        if (!(await sso.rememberAssertion(checked.issuer, checked.assertionId, checked.expiresAt))) {
          throw new SsoRefusal('expired', 'assertion replayed')
        }
        if (checked.inResponseTo) {
          const flow = await sso.findFlowByState(checked.inResponseTo)
          if (!flow || flow.connectionId !== connection.id || flow.purpose !== 'sign_in') {
            throw new SsoRefusal('failed', 'InResponseTo of no started flow')
          }
          if (!(await sso.consumeFlow(flow.id))) throw new SsoRefusal('expired', 'flow already used')
          if (flow.expiresAt <= new Date()) throw new SsoRefusal('expired', 'flow expired')
          if (flow.testedBy) {
            const identity = samlIdentity(saml, checked.attributes)
            return await testFinished(flow, connection, { attributes: checked.attributes, identity })
          }
        } else if (!saml.allowUnsolicited) {
          throw new SsoRefusal('failed', 'unsolicited response not enabled')
        }
        // Kept only where the provider offers single logout: sign-out then names this subject.
        const subject = saml.sloUrl ? checked.subject : null
        return await handOff(connection, samlIdentity(saml, checked.attributes), undefined, subject)
      } catch (error) {
        if (error instanceof SsoRefusal) return ctx.refuse(error, client, known, 'saml')
        throw error
      }
    },

    /** The sign-in page's one-time code for the portal's own tokens (as a password sign-in gets). */
    async exchange(code: string, client: ClientInfo): Promise<SignInResponse> {
      const handoff = await sso.consumeHandoff(hash(code), new Date())
      const expired = new AppError('UNAUTHENTICATED', 'This sign-in link has expired. Please sign in again.')
      if (!handoff) throw expired
      const row = await users.findById(handoff.userId)
      const user = row && (await users.findCredentialsByEmail(row.email))
      if (!user || user.status !== 'active') throw expired
      const connection = await sso.findConnectionById(handoff.connectionId)
      // The second factor hook: a user with a factor (or required to enrol) gets the second
      // step first; the connection id lets that step link the session to the connection.
      return auth.signIn(
        user,
        client,
        {
          message: 'User signed in',
          method: connection?.protocol === 'saml' ? 'saml' : 'oidc',
          companyId: connection?.companyId ?? null,
          ssoConnectionId: handoff.connectionId,
          // The provider's own second factor; the company's rule says whether it counts.
          ...(handoff.amr?.length ? { providerAmr: handoff.amr } : {}),
        },
        (sessionId, tx) => sso.insertSession(sessionId, handoff.connectionId, tx, handoff.samlSubject),
      )
    },
  }
}
export type SsoSignIn = ReturnType<typeof createSsoSignIn>
