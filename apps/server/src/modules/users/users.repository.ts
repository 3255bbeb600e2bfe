import { and, asc, eq, ne, sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { userColumns, userOptionColumns } from '../../db/columns'
import { firstRow } from '../../db/first-row'
import { appUser, authSession, company } from '../../db/schema'
import type { UserRow } from './users.mapper'

export interface NewUserRow {
  email: string
  username: string
  name: string | null
  passwordHash: string
  role: string
  companyId: string | null
}

export function createUsersRepository(db: DbOrTx) {
  const select = (where?: SQL) =>
    db.select(userColumns).from(appUser).leftJoin(company, eq(company.id, appUser.companyId)).where(where)

  return {
    async list(): Promise<UserRow[]> {
      return select().orderBy(asc(sql`lower(${appUser.email})`))
    },
    async findById(id: string, tx: DbOrTx = db): Promise<UserRow | null> {
      const [row] = await createUsersRepository(tx).selectWhere(eq(appUser.id, id))
      return row ?? null
    },
    selectWhere(where: SQL) {
      return select(where)
    },
    /** Includes the hash: only the sign-in path reads it. */
    async findCredentialsByEmail(email: string) {
      return firstRow(
        db
          .select({ ...userColumns, passwordHash: appUser.passwordHash, tokenVersion: appUser.tokenVersion })
          .from(appUser)
          .leftJoin(company, eq(company.id, appUser.companyId))
          .where(eq(sql`lower(${appUser.email})`, email.trim().toLowerCase())),
      )
    },
    async emailTaken(email: string, exceptId?: string): Promise<boolean> {
      const conditions = [eq(sql`lower(${appUser.email})`, email.trim().toLowerCase())]
      if (exceptId) conditions.push(ne(appUser.id, exceptId))
      const [row] = await db
        .select({ id: appUser.id })
        .from(appUser)
        .where(and(...conditions))
        .limit(1)
      return Boolean(row)
    },
    async companyExists(companyId: string): Promise<boolean> {
      const [row] = await db.select({ id: company.id }).from(company).where(eq(company.id, companyId)).limit(1)
      return Boolean(row)
    },
    async insert(values: NewUserRow, tx: DbOrTx = db): Promise<string> {
      const [row] = await tx.insert(appUser).values(values).returning({ id: appUser.id })
      return row!.id
    },
    async update(
      id: string,
      values: Partial<NewUserRow> & { status?: string },
      bumpTokenVersion: boolean,
      tx: DbOrTx = db,
    ) {
      await tx
        .update(appUser)
        .set({
          ...values,
          updatedAt: new Date(),
          ...(bumpTokenVersion ? { tokenVersion: sql`${appUser.tokenVersion} + 1` } : {}),
        })
        .where(eq(appUser.id, id))
    },
    async delete(id: string, tx: DbOrTx = db) {
      await tx.delete(appUser).where(eq(appUser.id, id))
    },
    async revokeSessions(userId: string, reason: string, tx: DbOrTx = db) {
      await tx
        .update(authSession)
        .set({ revokedAt: new Date(), revokedReason: reason })
        .where(and(eq(authSession.userId, userId), sql`${authSession.revokedAt} is null`))
    },
    async listByRole(role: string): Promise<UserRow[]> {
      return select(and(eq(appUser.role, role), eq(appUser.status, 'active'))).orderBy(
        asc(sql`lower(coalesce(${appUser.name}, ${appUser.email}))`),
      )
    },
    async listOptions() {
      return db
        .select(userOptionColumns)
        .from(appUser)
        .orderBy(asc(sql`lower(coalesce(${appUser.name}, ${appUser.email}))`))
    },
  }
}
export type UsersRepository = ReturnType<typeof createUsersRepository>
