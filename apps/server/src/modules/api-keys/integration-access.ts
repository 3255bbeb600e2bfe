import { ownCompanyOnly, type Role } from '@portal/shared'
import type { FastifyRequest } from 'fastify'
import type { Actor } from '../../lib/actor'
import { actorOf, requireUser } from '../../plugins/app/auth'

/**
 * The caller of the integration screens (API keys and webhook subscriptions): a signed-in
 * person, since a key can manage neither.
 */
export interface IntegrationManager {
  id: string
  role: Role
  companyId: string | null
  actor: Actor | null
  ip: string
}

export function managerOf(request: FastifyRequest): IntegrationManager {
  const user = requireUser(request)
  return { id: user.id, role: user.role, companyId: user.companyId, actor: actorOf(request), ip: request.ip }
}

/** A client's integrations are its company's; an admin sees every company's and the vendor's. */
export const ownerScopeOf = (who: IntegrationManager) =>
  ownCompanyOnly(who.role) ? { companyId: who.companyId ?? '' } : {}

/**
 * Whether the caller may have integrations: staff always, a client when an admin allows them
 * for its company (the API keys setting, which covers webhooks too).
 */
export function integrationsAllowedBy(companyAllows: (companyId: string) => Promise<boolean | null>) {
  return async (who: IntegrationManager): Promise<boolean> => {
    if (!ownCompanyOnly(who.role)) return true
    return who.companyId ? (await companyAllows(who.companyId)) === true : false
  }
}
