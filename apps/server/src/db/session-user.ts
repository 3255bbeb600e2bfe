import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Role } from '@portal/shared'
import type { AccessClaims } from '../lib/tokens'
import { companyShownName } from './columns'
import type { PGlite } from '@electric-sql/pglite'
import type { DbOrTx } from './client'
import { appUser, authSession, company } from './schema'
import { compileStatement, placeholders, runStatement } from './statement'

/** The signed-in user as the session check reads it: the whole docs/product-rules.md §3 user. */
export interface SessionUser {
  id: string
  email: string
  name: string | null
  username: string
  role: Role
  companyId: string | null
  /** The rest of the docs/product-rules.md §3 user, read by the same look-up, so GET /api/auth/me needs no other. */
  companyName: string | null
  status: string
  createdAt: Date
  lastLogin: Date | null
}

const P = placeholders('sid', 'sub', 'ver', 'now')

/**
 * The session check of every gated request (plugins/app/auth.ts), one indexed look-up with
 * placeholders sid, sub, ver and now: a suspended, deleted or signed-out user, or a token from
 * before a password or role change, fails on the very next call. It reads the whole
 * docs/product-rules.md §3 user, so GET /api/auth/me needs no other query. Built once and
 * prepared by name on each connection (db/statement.ts): neither the query's building nor
 * PostgreSQL's parse and plan are repeated per request. (The bench replays it as its SQL baseline.)
 */
const SESSION_USER_COLUMNS = sql`
  ${appUser.id} as "id", ${appUser.email} as "email", ${appUser.username} as "username",
  ${appUser.name} as "name", ${appUser.role} as "role", ${appUser.companyId} as "companyId",
  ${companyShownName} as "companyName", ${appUser.status} as "status",
  ${appUser.createdAt} as "createdAt", ${appUser.lastLogin} as "lastLogin"`
const SESSION_USER_FROM = sql`
  from ${authSession}
  inner join ${appUser} on ${eq(appUser.id, authSession.userId)}
  left join ${company} on ${eq(company.id, appUser.companyId)}`
const SESSION_USER_HOLDS = and(
  eq(authSession.id, P.sid),
  eq(appUser.id, P.sub),
  isNull(authSession.revokedAt),
  sql`${appUser.status} = 'active'`,
  eq(appUser.tokenVersion, P.ver),
)
const SESSION_USER = compileStatement(
  sql`select ${SESSION_USER_COLUMNS} ${SESSION_USER_FROM} where ${SESSION_USER_HOLDS} and ${gt(authSession.expiresAt, P.now)} limit 1`,
)
/** The same look-up with the session's expiry, compared by the caller (createSessionCheck). */
const SESSION_USER_EXPIRY = compileStatement(
  sql`select ${SESSION_USER_COLUMNS}, ${authSession.expiresAt} as "sessionExpiresAt" ${SESSION_USER_FROM} where ${SESSION_USER_HOLDS} limit 1`,
)

/** Runs the session check (SESSION_USER) for a token's claims; null when it no longer holds. */
export async function sessionUser(
  db: DbOrTx,
  claims: Pick<AccessClaims, 'sid' | 'sub' | 'ver'>,
): Promise<SessionUser | null> {
  const [row] = await runStatement(db, SESSION_USER, {
    sid: claims.sid,
    sub: claims.sub,
    ver: claims.ver,
    now: new Date(),
  })
  return (row as SessionUser | undefined) ?? null
}

/** A process's session check: the look-up above, or a remembered answer where that is safe. */
export type SessionCheck = (claims: Pick<AccessClaims, 'sid' | 'sub' | 'ver'>) => Promise<SessionUser | null>

/** What the triggers of migration 0043 (session_user_notice) notify after any write to sessions, users or companies. */
export const SESSION_USER_CHANGED = 'session_user_changed'

/** Remembered answers at most; a full map is emptied (it refills from the look-up). */
const REMEMBERED_MAX = 10_000

/**
 * The session check of `database`'s process. On PostgreSQL every request runs the look-up: other
 * processes may revoke a session or change a user at any moment. PGlite is opened by one process
 * only, whose every write to `auth_session`, `app_user` or `company` notifies SESSION_USER_CHANGED
 * (statement triggers, so every path counts: sign-out, suspension, role or password change, the
 * sync renaming a company). The notice arrives in the same protocol answer as the write's commit
 * and its listener runs as a microtask queued before the writer's own code resumes, so the
 * remembered answers are forgotten before anything can read them again. A look-up that was running
 * when a notice came is not remembered (the generation moved on). The session's expiry is compared
 * here, as the look-up compares it with the time of the call.
 */
export async function createSessionCheck(database: {
  db: DbOrTx
  jobTarget: { kind: 'postgres' } | { kind: 'pglite'; client: PGlite }
}): Promise<SessionCheck> {
  const { db, jobTarget } = database
  if (jobTarget.kind !== 'pglite') return (claims) => sessionUser(db, claims)
  const remembered = new Map<string, { user: SessionUser; expiresAtMs: number }>()
  let generation = 0
  await jobTarget.client.listen(SESSION_USER_CHANGED, () => {
    generation += 1
    remembered.clear()
  })
  // PGlite has one session: this setting turns the triggers' notices on for every write.
  await jobTarget.client.exec(`set portal.session_notices = 'on'`)
  return async (claims) => {
    const key = `${claims.sid}\n${claims.sub}\n${claims.ver}`
    const known = remembered.get(key)
    if (known && known.expiresAtMs > Date.now()) return known.user
    if (known) remembered.delete(key)
    const before = generation
    const [row] = await runStatement(db, SESSION_USER_EXPIRY, { sid: claims.sid, sub: claims.sub, ver: claims.ver })
    const found = row as (SessionUser & { sessionExpiresAt: Date | string }) | undefined
    if (!found) return null
    const { sessionExpiresAt, ...user } = found
    const expiresAtMs = new Date(sessionExpiresAt).getTime()
    if (expiresAtMs <= Date.now()) return null
    if (generation === before) {
      if (remembered.size >= REMEMBERED_MAX) remembered.clear()
      remembered.set(key, { user, expiresAtMs })
    }
    return user
  }
}
