import { and, asc, eq, gt, inArray, isNull, lt, notInArray, or, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { firstRow } from '../../db/first-row'
import { deleteWhere, stampOnce } from '../../db/row-writes'
import { companyShownName } from '../../db/columns'
import {
  type SamlSubject,
  appUser,
  company,
  ssoAssertion,
  ssoConnection,
  ssoDomain,
  ssoFlow,
  ssoHandoff,
  ssoPasswordUser,
  ssoSession,
  ssoStaffRole,
} from '../../db/schema'

export type SsoConnectionRow = typeof ssoConnection.$inferSelect
export type { SamlSubject } from '../../db/schema'

/** What a save writes: every setting of the protocol (the service fills defaults). */
export interface ConnectionValues {
  protocol: 'oidc' | 'saml'
  enabled: boolean
  ssoRequired: boolean
  createUsers: boolean
  oidcIssuer: string | null
  oidcClientId: string | null
  oidcClientSecret: string | null
  oidcScopes: string | null
  oidcEmailClaim: string | null
  oidcNameClaim: string | null
  /** SAML's settings as `saml.ts` stores them (validated by the service); null for OIDC. */
  samlSettings: unknown
}

/** The staff connection's own settings on top of a company connection's. */
export interface StaffConnectionValues extends ConnectionValues {
  displayName: string
  oidcRoleClaim: string
}

/** Whose domains: a company's, or (null) the vendor's staff. */
const domainOwner = (companyId: string | null) =>
  companyId === null ? isNull(ssoDomain.companyId) : eq(ssoDomain.companyId, companyId)

/** How another owner of a domain is named in a conflict. */
export const STAFF_DOMAIN_OWNER = 'the staff sign-in'

/** All of single sign-on's SQL. Every method takes an optional transaction. */
export function createSsoRepository(db: DbOrTx) {
  return {
    /** A present company's id and shown name. */
    async findCompany(companyId: string, tx: DbOrTx = db) {
      return firstRow(
        tx
          .select({ id: company.id, name: companyShownName })
          .from(company)
          .where(and(eq(company.id, companyId), isNull(company.removedAt))),
      )
    },

    async findConnection(companyId: string, tx: DbOrTx = db): Promise<SsoConnectionRow | null> {
      return firstRow(tx.select().from(ssoConnection).where(eq(ssoConnection.companyId, companyId)))
    },

    async findConnectionById(id: string, tx: DbOrTx = db): Promise<SsoConnectionRow | null> {
      return firstRow(tx.select().from(ssoConnection).where(eq(ssoConnection.id, id)))
    },

    /** One connection per company: a save replaces the company's connection in place. */
    async saveConnection(companyId: string, values: ConnectionValues, tx: DbOrTx = db): Promise<SsoConnectionRow> {
      const [row] = await tx
        .insert(ssoConnection)
        .values({ companyId, ...values })
        .onConflictDoUpdate({ target: ssoConnection.companyId, set: { ...values, updatedAt: new Date() } })
        .returning()
      return row!
    },

    /** Sealed values are bound to the connection id, known only once the row exists. */
    async setClientSecret(id: string, sealed: string | null, tx: DbOrTx = db): Promise<void> {
      await tx.update(ssoConnection).set({ oidcClientSecret: sealed }).where(eq(ssoConnection.id, id))
    },

    async deleteConnection(companyId: string, tx: DbOrTx = db): Promise<boolean> {
      return deleteWhere(tx, ssoConnection, eq(ssoConnection.companyId, companyId))
    },

    async domains(companyId: string | null, tx: DbOrTx = db): Promise<string[]> {
      const rows = await tx
        .select({ domain: ssoDomain.domain })
        .from(ssoDomain)
        .where(domainOwner(companyId))
        .orderBy(asc(ssoDomain.domain))
      return rows.map((r) => r.domain)
    },

    /** Which of these domains another company already has. */
    async domainsOfOthers(domains: string[], companyId: string | null, tx: DbOrTx = db) {
      if (domains.length === 0) return []
      return (
        tx
          .select({
            domain: ssoDomain.domain,
            companyName: sql<string>`coalesce(${companyShownName}, ${STAFF_DOMAIN_OWNER})`,
          })
          .from(ssoDomain)
          .leftJoin(company, eq(company.id, ssoDomain.companyId))
          // `is distinct from`: a staff domain (no company) is another owner's too.
          .where(and(inArray(ssoDomain.domain, domains), sql`${ssoDomain.companyId} is distinct from ${companyId}`))
      )
    },

    /** The company's domains become exactly `domains` (the primary key keeps one company per domain). */
    async replaceDomains(companyId: string | null, domains: string[], tx: DbOrTx = db): Promise<void> {
      await tx
        .delete(ssoDomain)
        .where(
          domains.length > 0
            ? and(domainOwner(companyId), notInArray(ssoDomain.domain, domains))
            : domainOwner(companyId),
        )
      if (domains.length > 0) {
        await tx
          .insert(ssoDomain)
          .values(domains.map((domain) => ({ domain, companyId })))
          .onConflictDoNothing()
      }
    },

    /**
     * The company a domain belongs to (present or not; companyId null: the vendor's staff), and
     * its enabled connection if any.
     */
    async ownerOfDomain(domain: string, tx: DbOrTx = db) {
      return firstRow(
        tx
          .select({
            companyId: ssoDomain.companyId,
            companyName: sql<string | null>`${companyShownName}`,
            removedAt: company.removedAt,
            connectionId: ssoConnection.id,
            enabled: ssoConnection.enabled,
            staffName: ssoConnection.displayName,
          })
          .from(ssoDomain)
          .leftJoin(company, eq(company.id, ssoDomain.companyId))
          .leftJoin(
            ssoConnection,
            or(
              eq(ssoConnection.companyId, ssoDomain.companyId),
              and(isNull(ssoDomain.companyId), eq(ssoConnection.staff, true)),
            ),
          )
          .where(eq(ssoDomain.domain, domain)),
      )
    },

    async findStaffConnection(tx: DbOrTx = db): Promise<SsoConnectionRow | null> {
      return firstRow(tx.select().from(ssoConnection).where(eq(ssoConnection.staff, true)))
    },

    /** The one staff connection: a save replaces it in place. */
    async saveStaffConnection(values: StaffConnectionValues, tx: DbOrTx = db): Promise<SsoConnectionRow> {
      const [updated] = await tx
        .update(ssoConnection)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(ssoConnection.staff, true))
        .returning()
      if (updated) return updated
      const [row] = await tx
        .insert(ssoConnection)
        .values({ ...values, staff: true, companyId: null })
        .returning()
      return row!
    },

    async deleteStaffConnection(tx: DbOrTx = db): Promise<boolean> {
      return deleteWhere(tx, ssoConnection, eq(ssoConnection.staff, true))
    },

    async staffRoles(tx: DbOrTx = db) {
      return tx
        .select({ claimValue: ssoStaffRole.claimValue, role: ssoStaffRole.role })
        .from(ssoStaffRole)
        .orderBy(asc(ssoStaffRole.claimValue))
    },

    async replaceStaffRoles(mappings: { claimValue: string; role: string }[], tx: DbOrTx = db): Promise<void> {
      await tx.delete(ssoStaffRole)
      if (mappings.length > 0) await tx.insert(ssoStaffRole).values(mappings)
    },

    async insertFlow(
      values: {
        connectionId: string
        state: string
        nonce: string
        codeVerifier: string
        expiresAt: Date
        testedBy?: string | null
        purpose?: 'sign_in' | 'logout'
      },
      tx: DbOrTx = db,
    ): Promise<string> {
      const [row] = await tx.insert(ssoFlow).values(values).returning({ id: ssoFlow.id })
      return row!.id
    },

    /** A SAML sign-in's flow, by the AuthnRequest id the identity provider answers to. */
    async findFlowByState(state: string, tx: DbOrTx = db) {
      return firstRow(tx.select().from(ssoFlow).where(eq(ssoFlow.state, state)))
    },

    /**
     * Records an accepted assertion id; false when it was seen already (a replay). The primary
     * key decides, so two server processes receiving the same assertion cannot both accept it.
     */
    async rememberAssertion(issuer: string, assertionId: string, expiresAt: Date, tx: DbOrTx = db) {
      const rows = await tx
        .insert(ssoAssertion)
        .values({ issuer, assertionId, expiresAt })
        .onConflictDoNothing()
        .returning({ id: ssoAssertion.assertionId })
      return rows.length === 1
    },

    async findFlow(id: string, tx: DbOrTx = db) {
      return firstRow(tx.select().from(ssoFlow).where(eq(ssoFlow.id, id)))
    },

    /** Marks the flow used; false when it was used already (a replayed callback). */
    async consumeFlow(id: string, tx: DbOrTx = db): Promise<boolean> {
      return stampOnce(tx, ssoFlow, 'consumedAt', id)
    },

    /** Keeps an admin's test outcome on its flow (the flow is used already). */
    async saveTestResult(flowId: string, result: unknown, tx: DbOrTx = db): Promise<void> {
      await tx.update(ssoFlow).set({ testResult: result }).where(eq(ssoFlow.id, flowId))
    },

    /** A finished test of the company's (null: the staff) connection, for the admin who started it. */
    async findTestResult(flowId: string, companyId: string | null, testedBy: string, tx: DbOrTx = db) {
      return firstRow(
        tx
          .select({ result: ssoFlow.testResult, createdAt: ssoFlow.createdAt })
          .from(ssoFlow)
          .innerJoin(ssoConnection, eq(ssoConnection.id, ssoFlow.connectionId))
          .where(
            and(
              eq(ssoFlow.id, flowId),
              companyId === null ? eq(ssoConnection.staff, true) : eq(ssoConnection.companyId, companyId),
              eq(ssoFlow.testedBy, testedBy),
            ),
          ),
      )
    },

    /** The company's client users allowed a password although it requires single sign-on. */
    async passwordUsers(companyId: string, tx: DbOrTx = db) {
      return tx
        .select({ id: appUser.id, email: appUser.email, name: appUser.name })
        .from(ssoPasswordUser)
        .innerJoin(appUser, eq(appUser.id, ssoPasswordUser.userId))
        .where(and(eq(ssoPasswordUser.companyId, companyId), eq(appUser.companyId, companyId)))
        .orderBy(asc(appUser.email))
    },

    /** Of these ids, the users of the company with one of `roles` (the ones a company's rule governs). */
    async companyUsersAmong(companyId: string, ids: string[], roles: string[], tx: DbOrTx = db) {
      if (ids.length === 0) return []
      const rows = await tx
        .select({ id: appUser.id })
        .from(appUser)
        .where(and(inArray(appUser.id, ids), eq(appUser.companyId, companyId), inArray(appUser.role, roles)))
      return rows.map((r) => r.id)
    },

    async replacePasswordUsers(companyId: string, userIds: string[], tx: DbOrTx = db): Promise<void> {
      await tx
        .delete(ssoPasswordUser)
        .where(
          userIds.length > 0
            ? and(eq(ssoPasswordUser.companyId, companyId), notInArray(ssoPasswordUser.userId, userIds))
            : eq(ssoPasswordUser.companyId, companyId),
        )
      if (userIds.length > 0) {
        await tx
          .insert(ssoPasswordUser)
          .values(userIds.map((userId) => ({ userId, companyId })))
          .onConflictDoNothing()
      }
    },

    async hasPasswordException(userId: string, companyId: string, tx: DbOrTx = db): Promise<boolean> {
      const [row] = await tx
        .select({ userId: ssoPasswordUser.userId })
        .from(ssoPasswordUser)
        .where(and(eq(ssoPasswordUser.userId, userId), eq(ssoPasswordUser.companyId, companyId)))
        .limit(1)
      return Boolean(row)
    },

    async insertHandoff(
      values: {
        codeHash: string
        userId: string
        connectionId: string
        expiresAt: Date
        amr?: string[] | null
        samlSubject?: SamlSubject | null
      },
      tx: DbOrTx = db,
    ): Promise<void> {
      await tx.insert(ssoHandoff).values(values)
    },

    /** Spends a one-time code: its user and connection, or null when unknown, spent or expired. */
    async consumeHandoff(codeHash: string, now: Date, tx: DbOrTx = db) {
      const [row] = await tx
        .update(ssoHandoff)
        .set({ consumedAt: now })
        .where(and(eq(ssoHandoff.codeHash, codeHash), isNull(ssoHandoff.consumedAt), gt(ssoHandoff.expiresAt, now)))
        .returning({
          userId: ssoHandoff.userId,
          connectionId: ssoHandoff.connectionId,
          amr: ssoHandoff.amr,
          samlSubject: ssoHandoff.samlSubject,
        })
      return row ?? null
    },

    /** `samlSubject`: who to name when ending the identity provider's session (none: not ended there). */
    async insertSession(
      sessionId: string,
      connectionId: string,
      tx: DbOrTx = db,
      samlSubject: SamlSubject | null = null,
    ): Promise<void> {
      await tx.insert(ssoSession).values({ sessionId, connectionId, samlSubject }).onConflictDoNothing()
    },

    /** The connection a portal session came from, and the SAML subject to end at the provider. */
    async linkOfSession(sessionId: string, tx: DbOrTx = db) {
      return firstRow(
        tx
          .select({ connection: ssoConnection, samlSubject: ssoSession.samlSubject })
          .from(ssoSession)
          .innerJoin(ssoConnection, eq(ssoConnection.id, ssoSession.connectionId))
          .where(eq(ssoSession.sessionId, sessionId)),
      )
    },

    /**
     * Demo mode: a present company with dispatches other than `avoid` (the demo client's), or
     * the fallback company, created when the mirror has no other.
     */
    async demoCompany(avoid: string | null, fallback: { id: string; name: string }, tx: DbOrTx = db) {
      const [row] = await tx
        .select({ id: company.id })
        .from(company)
        .where(and(isNull(company.removedAt), avoid ? sql`${company.id} <> ${avoid}` : undefined))
        .orderBy(
          asc(sql`(select count(*) from dispatch d where d.destination_id = ${company.id}) = 0`),
          asc(company.name),
        )
        .limit(1)
      if (row) return row.id
      await tx.insert(company).values(fallback).onConflictDoNothing()
      return fallback.id
    },

    /** Drops flows and codes past their expiry (a day's grace keeps recent ones for support). */
    async deleteExpired(before: Date, tx: DbOrTx = db): Promise<void> {
      await tx.delete(ssoFlow).where(lt(ssoFlow.expiresAt, before))
      await tx.delete(ssoHandoff).where(lt(ssoHandoff.expiresAt, before))
      await tx.delete(ssoAssertion).where(lt(ssoAssertion.expiresAt, before))
    },
  }
}
export type SsoRepository = ReturnType<typeof createSsoRepository>
