import { describe, expect, it } from 'vitest'
import { can, ownCompanyOnly, PERMISSIONS, type Permission } from './permissions'
import { ROLES, type Role } from './roles'

// docs/product-rules.md §6, row by row: who may do what.
const TABLE: [Permission, Role[]][] = [
  ['dispatch.read', ['admin', 'internal', 'sales', 'client']],
  ['dispatch.readNotes', ['admin', 'internal']],
  ['destination.read', ['admin', 'internal', 'sales']],
  ['report.readCount', ['admin', 'internal', 'sales']],
  ['course.read', ['admin', 'internal', 'sales', 'client']],
  ['course.edit', ['admin']],
  ['course.sync', ['admin']],
  ['courseRequest.create', ['client']],
  ['courseRequest.readOwn', ['client']],
  ['courseRequest.readAll', ['admin', 'sales']],
  ['courseRequest.updateStatus', ['admin']],
  ['company.read', ['admin', 'sales']],
  ['company.update', ['admin']],
  ['company.sync', ['admin']],
  ['user.manage', ['admin']],
  ['log.read', ['admin']],

  ['dispatch.create', ['admin']],
  ['dispatch.resetCount', ['admin']],
  ['dispatch.download', ['admin', 'internal', 'sales', 'client']],
  ['dispatch.readHistory', ['admin', 'internal', 'sales', 'client']],
  ['statement.read', ['admin', 'internal', 'sales', 'client']],
  ['courseRequest.fulfil', ['admin']],

  ['notification.read', ['admin', 'internal', 'sales', 'client']],
  ['alertSettings.manage', ['admin']],
  ['outbox.read', ['admin']],
  ['jobs.manage', ['admin']],
  ['profile.manage', ['admin', 'internal', 'sales', 'client']],
  // The role-gated affordances and the company scope
  ['company.readAll', ['admin', 'internal', 'sales']],
  ['company.readManagedOnly', ['sales']],
  ['company.readAccountManager', ['admin']],
  ['course.readHidden', ['admin']],
  ['course.readAppSource', ['admin']],
  ['sso.manage', ['admin']],
  // API keys: the vendor's (admin) and a company's (its client users, when allowed).
  ['apiKey.manage', ['admin', 'client']],
  ['webhook.manage', ['admin', 'client']],
]

describe('permissions (docs/product-rules.md §6)', () => {
  it.each(TABLE)('%s is granted to exactly %j', (permission, roles) => {
    for (const role of ROLES) expect(can(role, permission), `${role} ${permission}`).toBe(roles.includes(role))
  })

  it('denies a missing role', () => {
    expect(can(null, 'dispatch.read')).toBe(false)
    expect(can(undefined, 'course.read')).toBe(false)
  })

  it('gives no permission to an unknown role', () => {
    for (const p of Object.keys(PERMISSIONS) as Permission[]) expect(can('root' as Role, p)).toBe(false)
  })

  it('limits a client, and no staff role, to its own company; an unknown or missing role too', () => {
    expect(ROLES.filter((role) => ownCompanyOnly(role))).toEqual(['client'])
    expect(ownCompanyOnly(null)).toBe(true)
    expect(ownCompanyOnly('root' as Role)).toBe(true)
  })
})
