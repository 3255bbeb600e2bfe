import {
  USER_FORM_MESSAGES as M,
  companyIdForRole,
  defaultUsername,
  displayName,
  userFormError,
  type CreateUser,
  type Role,
  type LogEntry,
  type UpdateUser,
  type User,
  type UserOption,
  type UserFormInput,
  type UserStatus,
} from '@portal/shared'
import type { Db } from '../../db/client'
import { AppError } from '../../lib/app-error'
import { hashPassword, passwordPolicyError } from '../../lib/passwords'
import type { ActivityRepository, Actor } from '../activity-logs/activity.repository'
import type { LogsService } from '../activity-logs/logs.service'
import { toUser } from './users.mapper'
import type { UsersRepository } from './users.repository'
import { auditEntry } from '../../lib/actor'

export interface AdminContext {
  actor: Actor
  actorId: string
  ip: string
}

const rule = (message: string, field?: string) =>
  new AppError('RULE_VIOLATION', message, field ? { details: [{ field, message }] } : {})

/** docs/product-rules.md §5 user rules and docs/product-decisions.md D15, D17 password and token rules, for the admin's user screen. */
/** The latest rows a user wrote, for the admin's /admin/users/{id} page (docs/product-decisions.md D9). */
export const RECENT_ACTIVITY_LIMIT = 20

export function createUsersService(deps: {
  db: Db
  users: UsersRepository
  activity: ActivityRepository
  logs: Pick<LogsService, 'recentOfUser'>
}) {
  const { db, users, activity } = deps

  async function requireUser(id: string) {
    const row = await users.findById(id)
    if (!row) throw new AppError('NOT_FOUND', M.userNotFound)
    return row
  }

  type CompanyInput = { companyId?: string | null; destinationId?: string | null }
  const companyField = (body: CompanyInput) =>
    body.companyId === undefined && body.destinationId !== undefined ? 'destinationId' : 'companyId'

  /** The form's own rules (packages/shared userFormError), then the common-password list only the server has. */
  function checkForm(input: UserFormInput, creating: boolean, field: string) {
    const invalid = userFormError(input, { creating })
    if (invalid) throw rule(invalid.message, invalid.field === 'companyId' ? field : undefined)
    const policy = input.password ? passwordPolicyError(input.password, { email: input.email.trim() }) : null
    if (policy) throw rule(policy)
  }

  async function resolveCompany(role: Role, given: string | null | undefined, field: string) {
    const companyId = companyIdForRole(role, given)
    if (companyId && !(await users.companyExists(companyId))) throw rule(M.companyNotFound, field)
    return companyId
  }

  /** Records the failure with its reason, then lets the error reach the admin unchanged. */
  async function auditFailure(
    action: 'ADMIN_USER_CREATE_FAILED' | 'ADMIN_USER_UPDATE_FAILED',
    ctx: AdminContext,
    details: Record<string, unknown>,
    error: unknown,
  ): Promise<never> {
    if (error instanceof AppError && error.statusCode < 500) {
      await activity.record({
        action,
        actor: ctx.actor,
        ipAddress: ctx.ip,
        details: { ...details, error: error.message },
      })
    }
    throw error
  }

  return {
    async list(): Promise<User[]> {
      return (await users.list()).map(toUser)
    },

    async get(id: string): Promise<User> {
      return toUser(await requireUser(id))
    },

    /** GET /api/users/{id}/activity: 404 for an unknown user, else its latest log rows. */
    async recentActivity(id: string): Promise<LogEntry[]> {
      const row = await requireUser(id)
      return deps.logs.recentOfUser(row.id, RECENT_ACTIVITY_LIMIT)
    },

    /** The log screen's user filter (GET /api/auth/users): every user, by name. */
    async options(): Promise<UserOption[]> {
      const rows = await users.listOptions()
      return rows.map((u) => ({ id: u.id, name: displayName(u), email: u.email }))
    },

    async create(body: CreateUser, ctx: AdminContext): Promise<User> {
      const email = body.email.trim()
      try {
        const given = body.companyId ?? body.destinationId
        const password = body.password ?? ''
        checkForm({ email, password, role: body.role, companyId: given }, true, companyField(body))
        const companyId = await resolveCompany(body.role, given, companyField(body))
        if (await users.emailTaken(email)) throw new AppError('CONFLICT', M.emailInUse)
        const passwordHash = await hashPassword(password)
        const id = await db.transaction(async (tx) => {
          const newId = await users.insert(
            {
              email,
              username: body.username?.trim() || defaultUsername(email),
              name: body.name?.trim() || null,
              passwordHash,
              role: body.role,
              companyId,
            },
            tx,
          )
          await activity.record(
            auditEntry(ctx, 'ADMIN_USER_CREATED', { userId: newId, email, role: body.role, companyId }),
            tx,
          )
          return newId
        })
        return toUser((await users.findById(id))!)
      } catch (error) {
        return auditFailure('ADMIN_USER_CREATE_FAILED', ctx, { email, role: body.role }, error)
      }
    },

    async update(id: string, body: UpdateUser, ctx: AdminContext): Promise<User> {
      const current = await requireUser(id)
      try {
        const email = body.email?.trim() ?? current.email
        const role = body.role ?? (current.role as Role)
        // The last admin demoting itself would lock everyone out of administration;
        // like its own status and its own deletion, an admin's own role is not its to change.
        if (id === ctx.actorId && role !== current.role) throw rule(M.cannotChangeOwnRole)
        const companyGiven = body.companyId !== undefined || body.destinationId !== undefined
        const given = companyGiven ? (body.companyId ?? body.destinationId) : current.companyId
        // docs/product-rules.md §5: a blank password on edit means "keep the current one".
        const password = body.password ? body.password : null
        checkForm({ email, password, role, companyId: given }, false, companyField(body))
        if (email.toLowerCase() !== current.email.toLowerCase() && (await users.emailTaken(email, id))) {
          throw new AppError('CONFLICT', M.emailInUse)
        }
        const companyId = await resolveCompany(role, given, companyField(body))
        const roleChanged = role !== current.role
        const changed = Object.entries({
          email: email !== current.email,
          username:
            body.username !== undefined && (body.username?.trim() || defaultUsername(email)) !== current.username,
          name: body.name !== undefined && (body.name?.trim() || null) !== current.name,
          role: roleChanged,
          companyId: companyId !== current.companyId,
          password: Boolean(password),
        })
          .filter(([, v]) => v)
          .map(([k]) => k)
        const passwordHash = password ? await hashPassword(password) : undefined
        await db.transaction(async (tx) => {
          await users.update(
            id,
            {
              email,
              ...(body.username !== undefined ? { username: body.username?.trim() || defaultUsername(email) } : {}),
              ...(body.name !== undefined ? { name: body.name?.trim() || null } : {}),
              role,
              companyId,
              ...(passwordHash ? { passwordHash } : {}),
            },
            roleChanged || Boolean(password),
            tx,
          )
          // docs/product-decisions.md D17: a password or role change ends every session of the user.
          if (roleChanged || password) {
            await users.revokeSessions(id, password ? 'password changed' : 'role changed', tx)
          }
          await activity.record(auditEntry(ctx, 'ADMIN_USER_UPDATED', { userId: id, email, changed }), tx)
        })
        return toUser((await users.findById(id))!)
      } catch (error) {
        return auditFailure('ADMIN_USER_UPDATE_FAILED', ctx, { userId: id, email: current.email }, error)
      }
    },

    async setStatus(id: string, status: UserStatus, ctx: AdminContext): Promise<User> {
      if (id === ctx.actorId) throw rule(M.cannotChangeOwnStatus)
      const current = await requireUser(id)
      await db.transaction(async (tx) => {
        await users.update(id, { status }, false, tx)
        if (status === 'suspended') await users.revokeSessions(id, 'suspended', tx)
        await activity.record(
          auditEntry(ctx, status === 'suspended' ? 'ADMIN_USER_SUSPENDED' : 'ADMIN_USER_ACTIVATED', {
            userId: id,
            email: current.email,
            previousStatus: current.status,
          }),
          tx,
        )
      })
      return toUser((await users.findById(id))!)
    },

    async remove(id: string, ctx: AdminContext): Promise<void> {
      if (id === ctx.actorId) throw rule(M.cannotDeleteSelf)
      const current = await requireUser(id)
      await db.transaction(async (tx) => {
        await users.delete(id, tx)
        await activity.record(
          auditEntry(ctx, 'ADMIN_USER_DELETED', { userId: id, email: current.email, role: current.role }),
          tx,
        )
      })
    },

    /** docs/product-rules.md §6: only sales users can be account managers. */
    async listSales() {
      const rows = await users.listByRole('sales')
      return rows.map((u) => ({ id: u.id, name: displayName(u), email: u.email }))
    },
  }
}
export type UsersService = ReturnType<typeof createUsersService>
