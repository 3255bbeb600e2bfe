import { DELIVERY_MESSAGES as M, can, type DispatchLti, type LtiSecret } from '@portal/shared'
import { AppError } from '../../lib/app-error'
import type { ActivityRepository } from '../activity-logs/activity.repository'
import type { DeliveryContext as EditContext } from './delivery-scope'
import type { DispatchesService } from '../dispatches/dispatches.service'
import type { ScormCloudClient } from '../scorm-cloud/scorm-cloud.client'

/**
 * A dispatch's LTI data, read from SCORM Cloud on each request (docs/scorm-cloud-api.md §6.1:
 * GET …/dispatches/{id}/lti, …/lti13 and …/destinations/{id}/lti13); nothing is mirrored, so no
 * secret is ever stored by the portal. The LTI 1.1 shared secret leaves only through reveal(),
 * for the roles allowed to see it, and each reveal is logged.
 */
export function createLtiService(deps: {
  activity: ActivityRepository
  dispatches: DispatchesService
  client: () => ScormCloudClient | null
}) {
  const requireClient = () => {
    const client = deps.client()
    if (!client) throw new AppError('NOT_READY', M.notConfigured)
    return client
  }

  return {
    async get(viewer: EditContext['viewer'], id: string): Promise<DispatchLti> {
      const row = await deps.dispatches.requireVisible(viewer, id)
      const client = requireClient()
      const [lti11, link, tool] = await Promise.all([
        client.dispatchLti(id),
        client.dispatchLti13(id),
        client.destinationLti13(row.destinationId),
      ])
      return {
        dispatchId: id,
        lti11: {
          launchUrl: lti11?.url ?? '',
          consumerKey: lti11?.consumerKey ?? '',
          canRevealSecret: can(viewer.role, 'lti.revealSecret'),
        },
        lti13: {
          targetLinkUri: link?.targetLinkUri ?? '',
          oidcLoginInitiationsUrl: tool?.oidcLoginInitiationsUrl ?? '',
          redirectUri: tool?.redirectUri ?? '',
          jsonWebKeySetUrl: tool?.jsonWebKeySetUrl ?? '',
          publicKey: tool?.publicKey ?? '',
        },
      }
    },

    async revealSecret(id: string, ctx: EditContext): Promise<LtiSecret> {
      if (!can(ctx.viewer.role, 'lti.revealSecret')) throw new AppError('FORBIDDEN', M.secretForbidden)
      const row = await deps.dispatches.requireVisible(ctx.viewer, id)
      const lti = await requireClient().dispatchLti(id)
      await deps.activity.record({
        action: 'LTI_SECRET_REVEALED',
        actor: ctx.actor,
        ipAddress: ctx.ip,
        details: { dispatchId: id, companyId: row.destinationId, courseTitle: row.courseTitle },
      })
      return { sharedSecret: lti?.sharedSecret ?? '' }
    },
  }
}
export type LtiService = ReturnType<typeof createLtiService>
