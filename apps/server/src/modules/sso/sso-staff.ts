import {
  SSO_MESSAGES as M,
  type SaveStaffSsoBody,
  type StaffRoleMapping,
  type StaffSsoSettings,
  type SsoTestResult,
} from '@portal/shared'
import type { DbOrTx } from '../../db/client'
import { AppError } from '../../lib/app-error'
import { type AdminContext, DEFAULT_ROLE_CLAIM, invalid, oidcClientOf, type SsoContext } from './sso-context'
import { createReplaceDomains } from './sso-domains'
import type { SsoConnectionRow } from './sso.repository'

/** The vendor's staff connection (OIDC), its domains and the mapping of its groups to roles. */
export function createSsoStaff(ctx: SsoContext) {
  const { db, sso } = ctx
  const replaceDomainsOf = createReplaceDomains(ctx)

  async function toStaffSettings(row: SsoConnectionRow | null, tx: DbOrTx = db): Promise<StaffSsoSettings> {
    const roles = await sso.staffRoles(tx)
    return {
      connection: row && {
        enabled: row.enabled,
        displayName: row.displayName ?? '',
        oidc: oidcClientOf(row),
        roleClaim: row.oidcRoleClaim ?? DEFAULT_ROLE_CLAIM,
        updatedAt: row.updatedAt.toISOString(),
      },
      domains: await sso.domains(null, tx),
      roles: roles.map((r) => ({ claimValue: r.claimValue, role: r.role as StaffRoleMapping['role'] })),
      redirectUri: ctx.redirectUri,
    }
  }

  return {
    async staffSettings(): Promise<StaffSsoSettings> {
      return toStaffSettings(await sso.findStaffConnection())
    },

    /** Creates or replaces the staff connection (OIDC); the secret is kept when left out. */
    async saveStaff(body: SaveStaffSsoBody, admin: AdminContext): Promise<StaffSsoSettings> {
      const values = ctx.oidcValues(body)
      const displayName = body.displayName.trim()
      if (!displayName) throw invalid('displayName', 'Enter the name the sign-in screen shows.')
      const current = await sso.findStaffConnection()
      const row = await db.transaction(async (tx) => {
        const saved = await sso.saveStaffConnection(
          {
            protocol: 'oidc',
            enabled: body.enabled ?? true,
            ssoRequired: false,
            createUsers: true,
            ...values,
            oidcClientSecret: current?.oidcClientSecret ?? null,
            samlSettings: null,
            displayName: displayName.slice(0, 100),
            oidcRoleClaim: body.roleClaim?.trim() || DEFAULT_ROLE_CLAIM,
          },
          tx,
        )
        await ctx.replaceClientSecret(saved, body.clientSecret, tx)
        await ctx.recordAdmin(
          'SSO_CONNECTION_SAVED',
          admin,
          {
            staff: true,
            created: !current,
            clientSecretChanged: body.clientSecret !== undefined,
            after: (await toStaffSettings(saved, tx)).connection,
          },
          tx,
        )
        return saved
      })
      return toStaffSettings(row)
    },

    async removeStaff(admin: AdminContext): Promise<void> {
      await db.transaction(async (tx) => {
        if (!(await sso.deleteStaffConnection(tx))) throw new AppError('NOT_FOUND', M.staffNotConfigured)
        await ctx.recordAdmin('SSO_CONNECTION_REMOVED', admin, { staff: true }, tx)
      })
    },

    async setStaffDomains(input: string[], admin: AdminContext): Promise<StaffSsoSettings> {
      await replaceDomainsOf(null, input, admin)
      return toStaffSettings(await sso.findStaffConnection())
    },

    /** The whole mapping of group or role claim values to roles; a value maps to one role. */
    async setStaffRoles(roles: StaffRoleMapping[], admin: AdminContext): Promise<StaffSsoSettings> {
      const mappings = roles.map((r) => ({ claimValue: r.claimValue.trim(), role: r.role }))
      const emptyAt = mappings.findIndex((m) => !m.claimValue)
      if (emptyAt >= 0) throw invalid(`roles/${emptyAt}/claimValue`, 'Enter the group or role value.')
      const seen = new Set<string>()
      const twiceAt = mappings.findIndex((m) => seen.size === seen.add(m.claimValue).size)
      if (twiceAt >= 0) {
        throw invalid(`roles/${twiceAt}/claimValue`, `The value "${mappings[twiceAt]!.claimValue}" is mapped twice.`)
      }
      const before = await sso.staffRoles()
      await db.transaction(async (tx) => {
        await sso.replaceStaffRoles(mappings, tx)
        await ctx.recordAdmin('SSO_STAFF_ROLES_UPDATED', admin, { before, after: mappings }, tx)
      })
      return toStaffSettings(await sso.findStaffConnection())
    },

    async testStaff(): Promise<SsoTestResult> {
      const row = await sso.findStaffConnection()
      if (!row) throw new AppError('NOT_FOUND', M.staffNotConfigured)
      return ctx.testOidc(row)
    },
  }
}
