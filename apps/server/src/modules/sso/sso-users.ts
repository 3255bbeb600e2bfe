import { randomBytes } from 'node:crypto'
import { emailDomain, ownCompanyOnly, type Role } from '@portal/shared'
import { hashPassword } from '../../lib/passwords'
import type { StoredSamlSettings } from './saml'
import { DEFAULT_ROLE_CLAIM, type Identity, isUniqueViolation, type SsoContext, SsoRefusal } from './sso-context'
import type { SsoConnectionRow } from './sso.repository'

/** When several of a member's groups map to roles, the first of these they have wins. */
const ROLE_ORDER = ['admin', 'internal', 'sales'] as const

/** The identity an ID token's claims give, through the connection's claim names. */
export const oidcIdentity = (connection: SsoConnectionRow, claims: Record<string, unknown>): Identity => ({
  email: claims[connection.oidcEmailClaim ?? 'email'],
  name: claims[connection.oidcNameClaim ?? 'name'],
  emailVerified: claims.email_verified,
  groups: connection.staff ? claims[connection.oidcRoleClaim ?? DEFAULT_ROLE_CLAIM] : undefined,
})

/** An assertion's e-mail: the configured attribute, else the usual ones, else an e-mail NameID. */
export function samlIdentity(settings: StoredSamlSettings, attributes: Record<string, unknown>): Identity {
  const one = (value: unknown) => (Array.isArray(value) ? value[0] : value)
  const nameId = typeof attributes.nameID === 'string' && attributes.nameID.includes('@') ? attributes.nameID : null
  return {
    email: one(attributes[settings.emailAttribute]) ?? one(attributes.email) ?? nameId,
    name: one(attributes[settings.nameAttribute]) ?? one(attributes.displayName),
  }
}

/** The e-mail a provider's identity gives, checked to be usable (lower case). */
export function emailOf(identity: Identity): string {
  const email = typeof identity.email === 'string' ? identity.email.trim().toLowerCase() : ''
  if (!emailDomain(email) || email.length > 254) throw new SsoRefusal('no_email', 'no usable e-mail claim')
  if (identity.emailVerified === false) throw new SsoRefusal('no_email', 'e-mail not verified by the provider')
  return email
}

const nameOf = (identity: Identity) =>
  typeof identity.name === 'string' && identity.name.trim() ? identity.name.trim().slice(0, 200) : null

/** Maps a provider's identity to the portal user it stands for (company and staff connections). */
export function createSsoUsers(ctx: SsoContext) {
  const { db, sso, users, activity } = ctx

  /** A user a provider vouches for and who has none: never typed, so it signs in through the provider only. */
  async function insertUser(email: string, identity: Identity, role: string, companyId: string | null) {
    await users.insert({
      email,
      username: email.split('@')[0]!.slice(0, 100),
      name: nameOf(identity),
      passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
      role,
      companyId,
    })
  }

  /**
   * The vendor's staff member the staff provider vouches for: the role comes from the mapping of
   * the group claim at every sign-in (changed, audited, and earlier tokens ended when it
   * changes); without a matching mapping nobody gets in or is created. A client user, or an
   * e-mail of a company's domain, never signs in here.
   */
  async function staffUserFor(identity: Identity) {
    const email = emailOf(identity)
    const owner = await sso.ownerOfDomain(emailDomain(email)!)
    if (owner?.companyId) throw new SsoRefusal('other_company', 'e-mail domain of a company', { email })
    const values = (Array.isArray(identity.groups) ? identity.groups : [identity.groups]).filter(
      (v): v is string => typeof v === 'string',
    )
    const mapped = new Set((await sso.staffRoles()).filter((m) => values.includes(m.claimValue)).map((m) => m.role))
    const role = ROLE_ORDER.find((r) => mapped.has(r))
    let found = await users.findCredentialsByEmail(email)
    if (found && found.status !== 'active') throw new SsoRefusal('suspended', 'account suspended', { email })
    if (found && ownCompanyOnly(found.role as Role)) {
      throw new SsoRefusal('not_member', 'a client user at the staff connection', { email })
    }
    if (!role) throw new SsoRefusal('no_role', 'no role mapping matches', { email })
    if (!found) {
      await insertUser(email, identity, role, null)
      found = await users.findCredentialsByEmail(email)
      if (!found) throw new SsoRefusal('failed', 'user could not be created', { email })
      return { user: found, created: true }
    }
    if (found.role !== role) {
      const before = found.role
      await db.transaction(async (tx) => {
        // A new token version ends the access tokens issued under the old role.
        await users.update(found!.id, { role }, true, tx)
        await activity.record(
          {
            action: 'SSO_STAFF_ROLE_CHANGED',
            actor: null,
            ipAddress: null,
            details: { userId: found!.id, email, before, after: role },
          },
          tx,
        )
      })
      found = await users.findCredentialsByEmail(email)
    }
    return { user: found!, created: false }
  }

  /** The portal user the provider's identity stands for, created when the company allows it. */
  async function clientUserFor(connection: SsoConnectionRow, identity: Identity) {
    const email = emailOf(identity)
    const owner = await sso.ownerOfDomain(emailDomain(email)!)
    if (owner && owner.companyId !== connection.companyId) {
      throw new SsoRefusal('other_company', 'e-mail domain of another company', { email })
    }
    let found = await users.findCredentialsByEmail(email)
    if (!found) {
      if (!connection.createUsers) throw new SsoRefusal('unknown_user', 'unknown user', { email })
      try {
        await insertUser(email, identity, 'client', connection.companyId)
      } catch (error) {
        // Two first sign-ins at once: the other one created the user.
        if (!isUniqueViolation(error)) throw error
      }
      found = await users.findCredentialsByEmail(email)
      if (!found) throw new SsoRefusal('failed', 'user could not be created', { email })
      return { user: found, created: true }
    }
    if (found.status !== 'active') throw new SsoRefusal('suspended', 'account suspended', { email })
    // A company's provider vouches for that company's client users only, never for staff or
    // another company's users, whatever e-mail it claims.
    if (!ownCompanyOnly(found.role as Role) || found.companyId !== connection.companyId) {
      throw new SsoRefusal('not_member', 'not a client user of this company', { email })
    }
    return { user: found, created: false }
  }

  return {
    userFor: (connection: SsoConnectionRow, identity: Identity) =>
      connection.staff ? staffUserFor(identity) : clientUserFor(connection, identity),
  }
}
