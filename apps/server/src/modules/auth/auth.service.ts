import type { SecondStepResponse, SessionResponse, SignInResponse, User } from '@portal/shared'
import type { Db, Tx } from '../../db/client'
import { AppError } from '../../lib/app-error'
import { burnPasswordCheck, verifyPassword } from '../../lib/passwords'
import { hashToken, type TokenSigner } from '../../lib/tokens'
import type { ActivityRepository } from '../activity-logs/activity.repository'
import type { UsersRepository } from '../users/users.repository'
import { toUser } from '../users/users.mapper'
import type { AuthRepository } from './auth.repository'
import type { LoginThrottle } from './login-throttle'

/** One answer for an unknown email and a wrong password (docs/product-decisions.md D16). */
export const INVALID_CREDENTIALS = 'Invalid email or password.'
const INVALID_REFRESH = 'Your session has expired. Please sign in again.'

export interface ClientInfo {
  ip: string
  userAgent: string | null
}

export function createAuthService(deps: {
  db: Db
  repositories: { auth: AuthRepository; users: UsersRepository }
  activity: ActivityRepository
  signer: TokenSigner
  throttle: LoginThrottle
  sessionMaxHours: number
  /**
   * A reason to refuse a password sign-in whose password was right (a company that requires
   * single sign-on), or null. Checked after the password, so it reveals nothing to a guesser.
   */
  passwordRule?: (user: { id: string; role: string; companyId: string | null }) => Promise<string | null>
  /**
   * After the first factor: a second step the user must pass (or a required enrolment) before
   * any session exists, or null. Details are the sign-in's, kept for its LOGIN_SUCCESS.
   */
  secondStep?: (
    user: { id: string; role: string; companyId: string | null },
    details: Record<string, unknown>,
  ) => Promise<SecondStepResponse | null>
  /** Runs in every new session's transaction (the mail about a sign-in from a new browser). */
  onSessionIssued?: (
    user: { id: string; email: string },
    sessionId: string,
    client: ClientInfo,
    tx: Tx,
  ) => Promise<void>
}) {
  const { db, signer, throttle, activity } = deps
  const { auth, users } = deps.repositories

  async function loadUser(id: string): Promise<User> {
    const row = await users.findById(id)
    if (!row) throw new AppError('UNAUTHENTICATED', INVALID_REFRESH)
    return toUser(row)
  }

  /**
   * A new session and its first tokens, as every sign-in method issues them: the absolute
   * session limit, a rotating refresh token, LOGIN_SUCCESS with the method's details. `within`
   * writes the method's own rows in the same transaction.
   */
  async function issueSession(
    user: { id: string; name: string | null; username: string; email: string; tokenVersion: number },
    client: ClientInfo,
    details: Record<string, unknown>,
    within?: (sessionId: string, tx: Tx) => Promise<void>,
  ): Promise<SessionResponse> {
    const expiresAt = new Date(Date.now() + deps.sessionMaxHours * 3_600_000)
    const tokens = await db.transaction(async (tx) => {
      const sessionId = await auth.createSession(
        { userId: user.id, expiresAt, ipAddress: client.ip, userAgent: client.userAgent },
        tx,
      )
      const refresh = await signer.signRefresh({ sub: user.id, sid: sessionId }, expiresAt)
      await auth.insertRefreshToken({ sessionId, tokenHash: hashToken(refresh), expiresAt }, tx)
      await auth.touchLastLogin(user.id, tx)
      await within?.(sessionId, tx)
      await deps.onSessionIssued?.(user, sessionId, client, tx)
      await activity.record(
        {
          action: 'LOGIN_SUCCESS',
          actor: { id: user.id, name: user.name ?? user.username, email: user.email },
          details,
          ipAddress: client.ip,
        },
        tx,
      )
      const access = await signer.signAccess({ sub: user.id, sid: sessionId, ver: user.tokenVersion })
      return { accessToken: access, refreshToken: refresh }
    })
    return { ...tokens, user: await loadUser(user.id) }
  }

  /**
   * What every sign-in method calls once the user is known: the session, or first the second
   * step the rules ask for (the session is then issued by the second step's routes).
   */
  async function signIn(
    user: Parameters<typeof issueSession>[0] & { role: string; companyId: string | null },
    client: ClientInfo,
    details: Record<string, unknown>,
    within?: (sessionId: string, tx: Tx) => Promise<void>,
  ): Promise<SignInResponse> {
    const step = await deps.secondStep?.(user, details)
    return step ?? issueSession(user, client, details, within)
  }

  return {
    async login(email: string, password: string, client: ClientInfo): Promise<SignInResponse> {
      const wait = await throttle.retryAfter(email, client.ip)
      if (wait > 0) {
        throw new AppError('TOO_MANY_REQUESTS', 'Too many sign-in attempts. Please try again later.', {
          retryAfterSeconds: wait,
        })
      }
      const found = await users.findCredentialsByEmail(email)
      const passwordOk = found ? await verifyPassword(found.passwordHash, password) : await burnPasswordCheck(password)
      if (!found || !passwordOk || found.status !== 'active') {
        await throttle.recordFailure(email, client.ip)
        await activity.record({
          action: 'LOGIN_FAILED',
          actor: found ? { id: found.id, name: found.name ?? found.username, email: found.email } : null,
          details: {
            email: email.slice(0, 254),
            reason: !found ? 'unknown email' : !passwordOk ? 'wrong password' : 'account suspended',
          },
          ipAddress: client.ip,
        })
        throw new AppError('UNAUTHENTICATED', INVALID_CREDENTIALS)
      }
      const refusal = await deps.passwordRule?.(found)
      if (refusal) {
        await activity.record({
          action: 'LOGIN_FAILED',
          actor: { id: found.id, name: found.name ?? found.username, email: found.email },
          details: { email: email.slice(0, 254), method: 'password', reason: 'single sign-on required' },
          ipAddress: client.ip,
        })
        throw new AppError('UNAUTHENTICATED', refusal)
      }
      const result = await signIn(found, client, { message: 'User signed in', method: 'password' })
      // With a second step to come, failures keep counting: a right password must not reset the
      // count of wrong codes (the second step clears it when it succeeds).
      if (!('secondStep' in result)) await throttle.recordSuccess(email)
      return result
    },

    issueSession,
    signIn,

    /** Single use and rotated (RFC 9700 §4.14): a reused token revokes its whole family. */
    async refresh(token: string, client: ClientInfo): Promise<SessionResponse> {
      const claims = await signer.verifyRefresh(token)
      if (!claims) throw new AppError('UNAUTHENTICATED', INVALID_REFRESH)
      const stored = await auth.findRefreshToken(hashToken(token))
      if (!stored || stored.sessionId !== claims.sid) throw new AppError('UNAUTHENTICATED', INVALID_REFRESH)
      const actor = { id: stored.userId, name: stored.userName ?? stored.userUsername, email: stored.userEmail }
      const reuse = async () => {
        await db.transaction(async (tx) => {
          await auth.revokeSession(stored.sessionId, 'refresh token reuse', tx)
          await activity.record(
            {
              action: 'TOKEN_REUSE_DETECTED',
              actor,
              details: { message: 'A spent refresh token was presented again; the session was revoked.' },
              ipAddress: client.ip,
            },
            tx,
          )
        })
        return new AppError('UNAUTHENTICATED', INVALID_REFRESH)
      }
      if (stored.usedAt) throw await reuse()
      const now = new Date()
      if (
        stored.sessionRevokedAt ||
        stored.sessionExpiresAt <= now ||
        stored.tokenExpiresAt <= now ||
        stored.userStatus !== 'active'
      ) {
        throw new AppError('UNAUTHENTICATED', INVALID_REFRESH)
      }
      const refresh = await signer.signRefresh({ sub: stored.userId, sid: stored.sessionId }, stored.sessionExpiresAt)
      const spent = await db
        .transaction(async (tx) => {
          const newId = await auth.insertRefreshToken(
            { sessionId: stored.sessionId, tokenHash: hashToken(refresh), expiresAt: stored.sessionExpiresAt },
            tx,
          )
          const ok = await auth.spendRefreshToken(stored.tokenId, newId, tx)
          if (!ok) tx.rollback()
          return ok
        })
        .catch((error: unknown) => {
          if ((error as Error).name === 'TransactionRollbackError') return false
          throw error
        })
      if (!spent) throw await reuse()
      await auth.touchSession(stored.sessionId)
      const access = await signer.signAccess({ sub: stored.userId, sid: stored.sessionId, ver: stored.tokenVersion })
      return { accessToken: access, refreshToken: refresh, user: await loadUser(stored.userId) }
    },

    /** Logout: ends the whole session. Unknown tokens get the same answer (no oracle). */
    /**
     * Ends the session of a refresh token. `within`: more to do in the same transaction (a single
     * sign-on session asking its provider to end its own), its answer added to the LOGOUT entry.
     */
    async revoke(
      token: string,
      client: ClientInfo,
      within?: (sessionId: string, tx: Tx) => Promise<Record<string, unknown> | undefined>,
    ): Promise<{ sessionId: string } | null> {
      const stored = await auth.findRefreshToken(hashToken(token))
      if (!stored || stored.sessionRevokedAt) return null
      await db.transaction(async (tx) => {
        await auth.revokeSession(stored.sessionId, 'logout', tx)
        const more = (await within?.(stored.sessionId, tx)) ?? {}
        await activity.record(
          {
            action: 'LOGOUT',
            actor: { id: stored.userId, name: stored.userName ?? stored.userUsername, email: stored.userEmail },
            details: { message: 'User signed out', ...more },
            ipAddress: client.ip,
          },
          tx,
        )
      })
      return { sessionId: stored.sessionId }
    },

    me: loadUser,
  }
}
export type AuthService = ReturnType<typeof createAuthService>
