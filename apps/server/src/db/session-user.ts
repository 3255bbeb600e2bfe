import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Role } from '@portal/shared'
import type { AccessClaims } from '../lib/tokens'
import { companyShownName } from './columns'
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
const SESSION_USER = compileStatement(sql`
  select ${appUser.id} as "id", ${appUser.email} as "email", ${appUser.username} as "username",
         ${appUser.name} as "name", ${appUser.role} as "role", ${appUser.companyId} as "companyId",
         ${companyShownName} as "companyName", ${appUser.status} as "status",
         ${appUser.createdAt} as "createdAt", ${appUser.lastLogin} as "lastLogin"
  from ${authSession}
  inner join ${appUser} on ${eq(appUser.id, authSession.userId)}
  left join ${company} on ${eq(company.id, appUser.companyId)}
  where ${and(
    eq(authSession.id, P.sid),
    eq(appUser.id, P.sub),
    isNull(authSession.revokedAt),
    gt(authSession.expiresAt, P.now),
    sql`${appUser.status} = 'active'`,
    eq(appUser.tokenVersion, P.ver),
  )}
  limit 1`)

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
