import { randomBytes } from 'node:crypto'
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server'
import { decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers'
import { MFA_MESSAGES as M, type FactorAdded, type SessionResponse } from '@portal/shared'
import { AppError } from '../../lib/app-error'
import type { ClientInfo } from '../auth/auth.service'
import { tokenHash } from './mfa.gate'
import type { MfaCore, MfaDeps, NamedUser } from './mfa.core'
import type { MfaFactorRow } from './mfa.repository'

/** A passkey ceremony (the browser's prompt) gets five minutes; its challenge is spent once. */
const CEREMONY_SECONDS = 5 * 60

/**
 * The relying party for passkeys: PUBLIC_URL's host name and origin. Browsers refuse an IP
 * address as a relying party id, so a loopback address (a development or test server) is
 * taken as `localhost`, which browsers treat as secure too.
 */
export function webauthnRelyingParty(publicUrl: string): { rpId: string; origin: string } {
  const url = new URL(publicUrl)
  if (/^127\.\d+\.\d+\.\d+$/.test(url.hostname) || url.hostname === '[::1]') url.hostname = 'localhost'
  return { rpId: url.hostname, origin: url.origin }
}

/** The challenge the browser signed, read from the client data (null: not readable). */
function signedChallenge(response: { response?: { clientDataJSON?: unknown } }): string | null {
  const data = response.response?.clientDataJSON
  if (typeof data !== 'string') return null
  try {
    const challenge = decodeClientDataJSON(data).challenge
    return typeof challenge === 'string' ? challenge : null
  } catch {
    return null
  }
}

const transportsOf = (row: MfaFactorRow): AuthenticatorTransport[] => {
  try {
    const parsed: unknown = JSON.parse(row.transports ?? '[]')
    return Array.isArray(parsed) ? (parsed as AuthenticatorTransport[]) : []
  } catch {
    return []
  }
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 200)

/**
 * Passkeys (WebAuthn, user verification required): registered from Profile, used alone to sign
 * in (a passkey with user verification is something held and something known or been), or as
 * the second step after a password. Challenges live in the database, so any node can check the
 * answer, and each is spent before its answer is checked.
 */
export function createPasskeys(deps: MfaDeps, core: MfaCore) {
  const { repository: repo, webauthn, activity, throttle } = deps
  const expected = { expectedOrigin: webauthn.origin, expectedRPID: webauthn.rpId, requireUserVerification: true }
  const ceremonyEnd = () => new Date(Date.now() + CEREMONY_SECONDS * 1000)
  const passkeysOf = async (userId: string) => (await repo.factors(userId)).filter((f) => f.kind === 'passkey')
  const descriptor = (f: MfaFactorRow) => ({ id: f.credentialId!, transports: transportsOf(f) })

  /** Checks an assertion against the stored credential and moves its counter forward. */
  async function checkAssertion(
    factor: MfaFactorRow,
    response: AuthenticationResponseJSON,
    expectedChallenge: string,
  ): Promise<string | null> {
    try {
      const result = await verifyAuthenticationResponse({
        ...expected,
        response,
        expectedChallenge,
        credential: {
          id: factor.credentialId!,
          publicKey: isoBase64URL.toBuffer(factor.publicKey!),
          counter: factor.signCount ?? 0,
          transports: transportsOf(factor),
        },
      })
      if (!result.verified) return 'assertion not verified'
      // A counter that does not move forward is a cloned authenticator or a replayed answer.
      const moved = await repo.advanceSignCount(factor.id, result.authenticationInfo.newCounter)
      return moved ? null : 'signature counter did not move forward'
    } catch (error) {
      return reasonOf(error)
    }
  }

  const refused = () => new AppError('UNAUTHENTICATED', M.passkeyRefused)

  return {
    // ---- Profile: registration ----
    async passkeyRegistrationOptions(user: NamedUser) {
      const options = await generateRegistrationOptions({
        rpName: webauthn.rpName,
        rpID: webauthn.rpId,
        userName: user.email,
        userDisplayName: user.name ?? user.username,
        userID: new TextEncoder().encode(user.id),
        attestationType: 'none',
        excludeCredentials: (await passkeysOf(user.id)).map(descriptor),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        timeout: CEREMONY_SECONDS * 1000,
      })
      await repo.insertChallenge({
        tokenHash: tokenHash(options.challenge),
        userId: user.id,
        purpose: 'passkey-register',
        webauthnChallenge: options.challenge,
        expiresAt: ceremonyEnd(),
      })
      return { options }
    },

    /** The browser's answer to the registration options: the passkey is added, named. */
    async registerPasskey(
      user: NamedUser,
      name: string,
      response: RegistrationResponseJSON,
      client: ClientInfo,
    ): Promise<FactorAdded> {
      // The answer is well formed but WebAuthn's rules refuse it (origin, relying party, user
      // verification, signature): a rule, not a malformed field.
      const notAdded = () =>
        new AppError('RULE_VIOLATION', M.passkeyNotAdded, {
          details: [{ field: 'response', message: M.passkeyNotAdded }],
        })
      const label = name.trim().slice(0, 100) || 'Passkey'
      const challenge = signedChallenge(response)
      const row = challenge ? await repo.findChallenge(tokenHash(challenge), 'passkey-register') : null
      // Another user's challenge is no challenge of this user's; each is spent before the check.
      if (!row || row.userId !== user.id || !(await repo.spendChallenge(row.id))) {
        throw new AppError('CONFLICT', M.passkeyPromptExpired)
      }
      let info
      try {
        const result = await verifyRegistrationResponse({
          ...expected,
          response,
          expectedChallenge: row.webauthnChallenge ?? '',
        })
        info = result.verified ? result.registrationInfo : undefined
      } catch {
        info = undefined
      }
      if (!info) throw notAdded()
      const { credential } = info
      if (await repo.findByCredentialId(credential.id)) throw new AppError('CONFLICT', M.passkeyExists)
      return core.addFactor(user, client, async (tx) => {
        const factor = await repo.insertFactor(
          {
            userId: user.id,
            kind: 'passkey',
            name: label,
            credentialId: credential.id,
            publicKey: isoBase64URL.fromBuffer(credential.publicKey),
            signCount: credential.counter,
            transports: JSON.stringify(credential.transports ?? []),
            confirmedAt: new Date(),
          },
          tx,
        )
        return { id: factor.id, kind: 'passkey', name: label }
      })
    },

    // ---- sign-in with a passkey alone ----
    async passkeySignInOptions() {
      const options = await generateAuthenticationOptions({
        rpID: webauthn.rpId,
        userVerification: 'required',
        timeout: CEREMONY_SECONDS * 1000,
      })
      const token = randomBytes(32).toString('base64url')
      await repo.deleteExpiredChallenges(new Date(Date.now() - 3_600_000))
      await repo.insertChallenge({
        tokenHash: tokenHash(token),
        purpose: 'passkey',
        webauthnChallenge: options.challenge,
        expiresAt: ceremonyEnd(),
      })
      return { token, options }
    },

    async passkeySignIn(token: string, response: AuthenticationResponseJSON, client: ClientInfo) {
      const row = await repo.findChallenge(tokenHash(token), 'passkey')
      if (!row?.webauthnChallenge || !(await repo.spendChallenge(row.id))) {
        throw new AppError('UNAUTHENTICATED', M.stepExpired)
      }
      const factor = typeof response.id === 'string' ? await repo.findByCredentialId(response.id) : null
      const user = factor?.kind === 'passkey' ? await repo.signInUser(factor.userId) : null
      if (!factor || !user || user.status !== 'active') {
        await activity.record({
          action: 'LOGIN_FAILED',
          actor: null,
          details: { method: 'passkey', reason: user ? 'account suspended' : 'unknown passkey' },
          ipAddress: client.ip,
        })
        throw refused()
      }
      await core.checkThrottle(user.email, client)
      const rule = await deps.signInRule?.(user)
      if (rule) {
        await core.failed(user, client, 'passkey', 'single sign-on required')
        throw new AppError('UNAUTHENTICATED', rule)
      }
      const problem = await checkAssertion(factor, response, row.webauthnChallenge)
      if (problem) {
        await core.failed(user, client, 'passkey', problem)
        throw refused()
      }
      await throttle.recordSuccess(user.email)
      // User verification on the passkey makes it two factors: no second step follows.
      return deps.auth.issueSession(user, client, {
        message: 'User signed in',
        method: 'passkey',
        factor: 'passkey (user verified)',
        factorId: factor.id,
      })
    },

    // ---- a passkey as the second step after a password ----
    async passkeyStepOptions(token: string) {
      const { challenge, user } = await core.openStep(token, 'verify')
      const passkeys = await passkeysOf(user.id)
      if (passkeys.length === 0) throw new AppError('VALIDATION_FAILED', M.noPasskey)
      const options = await generateAuthenticationOptions({
        rpID: webauthn.rpId,
        allowCredentials: passkeys.map(descriptor),
        userVerification: 'required',
        timeout: CEREMONY_SECONDS * 1000,
      })
      await repo.setWebauthnChallenge(challenge.id, options.challenge)
      return { options }
    },

    async verifyPasskeyStep(
      token: string,
      response: AuthenticationResponseJSON,
      client: ClientInfo,
    ): Promise<SessionResponse> {
      const { challenge, user } = await core.openStep(token, 'verify')
      await core.checkThrottle(user.email, client)
      const expectedChallenge = challenge.webauthnChallenge
      // The challenge is taken before the check: an answer is checked against it once.
      if (!expectedChallenge || !(await repo.takeWebauthnChallenge(challenge.id, expectedChallenge))) {
        throw refused()
      }
      const factor = typeof response.id === 'string' ? await repo.findByCredentialId(response.id) : null
      if (!factor || factor.kind !== 'passkey' || factor.userId !== user.id) {
        await core.failed(user, client, 'passkey', 'not a passkey of this account')
        throw refused()
      }
      const problem = await checkAssertion(factor, response, expectedChallenge)
      if (problem) {
        await core.failed(user, client, 'passkey', problem)
        throw refused()
      }
      return core.complete(challenge, user, client, 'passkey')
    },
  }
}
