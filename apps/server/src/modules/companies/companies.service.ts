import {
  can,
  COMPANY_MESSAGES as M,
  companyNameError,
  type Company,
  type CompanyDetail,
  type Role,
  type UpdateCompanyBody,
} from '@portal/shared'
import type { Db } from '../../db/client'
import { AppError } from '../../lib/app-error'
import type { ActivityRepository, Actor } from '../activity-logs/activity.repository'
import type { CompaniesRepository, CompanyChanges, CompanyListRow, CompanyRow } from './companies.repository'
import { auditEntry } from '../../lib/actor'

export interface AdminContext {
  actor: Actor | null
  ip: string
}

const rule = (message: string) => new AppError('RULE_VIOLATION', message)

type Manager = { id: string; email: string }

/** docs/product-rules.md §2: the Account Manager column is admin-only, so its fields reach admins only. */
function managerFields(row: CompanyRow, role: Role) {
  if (!can(role, 'company.readAccountManager')) return {}
  return {
    accountManagerId: row.accountManagerId,
    accountManagerName: row.accountManagerId ? (row.accountManagerName ?? row.accountManagerUsername) : null,
    accountManagerEmail: row.accountManagerEmail,
  }
}

export function toCompany(row: CompanyListRow, role: Role): Company {
  return {
    id: row.id,
    name: row.name,
    ...managerFields(row, role),
    counts: { users: row.users, courseRequests: row.courseRequests, dispatches: row.dispatches },
  }
}

/** The companies screens (docs/product-rules.md §2 Companies, Company detail): mirror reads and the admin's edit. */
export function createCompaniesService(deps: { db: Db; companies: CompaniesRepository; activity: ActivityRepository }) {
  const { db, companies, activity } = deps

  async function requireCompany(id: string): Promise<CompanyRow> {
    const row = await companies.findById(id)
    if (!row) throw new AppError('NOT_FOUND', M.notFound)
    return row
  }

  /** The manager the body asks for: undefined = unchanged, null = none, else an active sales user. */
  async function requestedManager(body: UpdateCompanyBody, current: CompanyRow): Promise<Manager | null | undefined> {
    const kept: Manager | null =
      current.accountManagerId && current.accountManagerEmail
        ? { id: current.accountManagerId, email: current.accountManagerEmail }
        : null
    let by: { id: string } | { email: string }
    if (body.accountManagerId !== undefined) {
      if (!body.accountManagerId) return null
      // Keeping the current manager needs no check (they may since have been suspended).
      if (kept && body.accountManagerId === kept.id) return kept
      by = { id: body.accountManagerId }
    } else if (body.accountManagerEmail !== undefined) {
      const email = body.accountManagerEmail?.trim()
      if (!email) return null
      if (kept && email.toLowerCase() === kept.email.toLowerCase()) return kept
      by = { email }
    } else {
      return undefined
    }
    const user = await companies.findActiveSalesUser(by)
    if (!user) {
      // The refusal names the field it is about.
      const field = 'id' in by ? 'accountManagerId' : 'accountManagerEmail'
      throw new AppError('RULE_VIOLATION', M.managerNotSales, { details: [{ field, message: M.managerNotSales }] })
    }
    return user
  }

  /** Counts and the mirror's health are read from the database; SCORM Cloud is never asked. */
  async function scormErrorOf(): Promise<string | null> {
    const health = await companies.dispatchSyncHealth()
    if (health.lastStatus !== 'failed') return null
    const since = health.lastSucceededAt ? ` (last successful sync ${health.lastSucceededAt.toISOString()})` : ''
    return `SCORM Cloud could not be reached for live figures. Licence figures are from the portal's copy${since} and may be out of date.`
  }

  return {
    async list(role: Role): Promise<Company[]> {
      return (await companies.list()).map((row) => toCompany(row, role))
    },

    async detail(id: string, role: Role): Promise<CompanyDetail> {
      const row = await requireCompany(id)
      const [users, requests, dispatches, scormError] = await Promise.all([
        companies.users(id),
        companies.courseRequests(id),
        companies.dispatches(id),
        scormErrorOf(),
      ])
      return {
        id: row.id,
        name: row.name,
        ...managerFields(row, role),
        users: users.map((u) => ({ id: u.id, name: u.name ?? u.username, email: u.email, role: u.role as Role })),
        courseRequests: requests.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
        dispatches: dispatches.map((d) => ({
          ...d,
          created: d.created?.toISOString() ?? null,
          expirationDate: d.expirationDate?.toISOString() ?? null,
        })),
        scormError,
      }
    },

    /**
     * docs/product-rules.md §5 rename and account manager (admin). The change and its COMPANY_UPDATED row (before
     * and after of each changed field) commit together; a refused edit writes nothing.
     */
    async update(id: string, body: UpdateCompanyBody, ctx: AdminContext): Promise<Company> {
      const current = await requireCompany(id)
      const changes: CompanyChanges = {}
      const before: Record<string, unknown> = {}
      const after: Record<string, unknown> = {}
      if (body.name === undefined && body.accountManagerId === undefined && body.accountManagerEmail === undefined) {
        throw rule(M.nothingToUpdate)
      }
      if (body.name !== undefined) {
        const error = companyNameError(body.name)
        if (error) throw rule(error)
        const name = body.name.trim()
        if (name !== current.name) {
          // The provider's own name again: follow the provider from now on.
          changes.displayName = name === current.providerName ? null : name
          before.name = current.name
          after.name = name
        }
      }
      const manager = await requestedManager(body, current)
      if (manager !== undefined && (manager?.id ?? null) !== current.accountManagerId) {
        changes.accountManagerId = manager?.id ?? null
        before.accountManagerId = current.accountManagerId
        before.accountManagerEmail = current.accountManagerEmail
        after.accountManagerId = manager?.id ?? null
        after.accountManagerEmail = manager?.email ?? null
      }
      if (Object.keys(changes).length > 0) {
        await db.transaction(async (tx) => {
          await companies.update(id, changes, tx)
          await activity.record(auditEntry(ctx, 'COMPANY_UPDATED', { companyId: id, before, after }), tx)
        })
      }
      return toCompany((await companies.listOne(id))!, 'admin')
    },
  }
}
export type CompaniesService = ReturnType<typeof createCompaniesService>
