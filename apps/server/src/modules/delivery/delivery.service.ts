import {
  DELIVERY_MESSAGES as M,
  INSTANCING_EXPLANATION,
  type CompanyDelivery,
  type CompanyLicenceCount,
  type DispatchDelivery,
  type LicenceCount,
  type UpdateCompanyDeliveryBody,
  type UpdateDispatchDeliveryBody,
} from '@portal/shared'
import type { Db } from '../../db/client'
import { AppError } from '../../lib/app-error'
import type { ActivityRepository } from '../activity-logs/activity.repository'
import { requireCompanyVisible, type DeliveryContext as EditContext } from './delivery-scope'
import type { DispatchesService } from '../dispatches/dispatches.service'
import type { ScormCloudClient } from '../scorm-cloud/scorm-cloud.client'
import { mergeLaunchAuth, parseDeliveryEdit } from './delivery-input'
import { launchAuthColumns, launchAuthOf } from './launch-auth'
import {
  createDeliveryRepository,
  type CompanyDeliveryRow,
  type CompanyDeliveryUpdate,
  type DeliveryRepository,
} from './delivery.repository'
import { createLtiService } from './lti.service'

function toCompanyDelivery(row: CompanyDeliveryRow): CompanyDelivery {
  const instancing =
    row.dispatches === 0
      ? 'none'
      : row.instancedDispatches === row.dispatches
        ? 'on'
        : row.instancedDispatches === 0
          ? 'off'
          : 'mixed'
  return {
    companyId: row.id,
    launchAuth: launchAuthOf(row),
    instancing,
    instancedDispatches: row.instancedDispatches,
    dispatches: row.dispatches,
    hashUserInfo: row.hashUserInfo,
    cssUrl: row.cssUrl,
    instancingExplanation: INSTANCING_EXPLANATION,
  }
}

/** Field by field, what an edit changed (the DELIVERY_SETTINGS_UPDATED details). */
function changesOf(before: Record<string, unknown>, after: Record<string, unknown>) {
  const changes: Record<string, { before: unknown; after: unknown }> = {}
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null))
      changes[key] = { before: before[key] ?? null, after: after[key] ?? null }
  }
  return changes
}

/**
 * Delivery settings of a company (a SCORM Cloud destination) and of a dispatch: checked, then
 * written to SCORM Cloud, read back from it, then the mirror and the log in one transaction, as
 * dispatch edits are (dispatch-update.service.ts). A provider refusal (502 with its message)
 * leaves the mirror and the log untouched. The style sheet URL is the portal's own: SCORM Cloud
 * keeps none, it takes `cssUrl` with each package request (docs/scorm-cloud-api.md §6.1).
 */
export function createDeliveryService(deps: {
  db: Db
  repository: DeliveryRepository
  activity: ActivityRepository
  dispatches: DispatchesService
  client: () => ScormCloudClient | null
}) {
  const { repository, activity } = deps
  const requireClient = () => {
    const client = deps.client()
    if (!client) throw new AppError('NOT_READY', M.notConfigured)
    return client
  }

  async function readCompany(viewer: EditContext['viewer'], id: string): Promise<CompanyDeliveryRow> {
    requireCompanyVisible(viewer, id)
    const row = await repository.findCompany(id)
    if (!row) throw new AppError('NOT_FOUND', 'Company not found.')
    return row
  }

  return {
    async company(viewer: EditContext['viewer'], id: string): Promise<CompanyDelivery> {
      return toCompanyDelivery(await readCompany(viewer, id))
    },

    async updateCompany(id: string, body: UpdateCompanyDeliveryBody, ctx: EditContext): Promise<CompanyDelivery> {
      const edit = parseDeliveryEdit(body)
      const row = await readCompany(ctx.viewer, id)
      const needsProvider =
        edit.launchAuth !== undefined || edit.instanced !== undefined || edit.hashUserInfo !== undefined
      const client = needsProvider ? requireClient() : null
      const values: CompanyDeliveryUpdate = {}
      const instanced: { id: string; instanced: boolean }[] = []
      if (client) {
        if (edit.launchAuth) {
          const auth = mergeLaunchAuth(edit.launchAuth, launchAuthOf(row))
          await client.setDestinationLaunchAuth(id, {
            type: auth.type as 'cookies' | 'vault',
            options: {
              ipAddress: auth.ipAddress,
              fingerprint: auth.fingerprint,
              expiry: auth.expiry,
              slidingExpiry: auth.slidingExpiry,
            },
          })
        }
        if (edit.instanced !== undefined) await client.setDestinationInstancing(id, edit.instanced)
        if (edit.hashUserInfo !== undefined) await client.setDestinationHashUserInfo(id, edit.hashUserInfo)
        // Read back what SCORM Cloud now holds: that is what the mirror records.
        if (edit.launchAuth) Object.assign(values, launchAuthColumns(await client.getDestination(id)))
        if (edit.hashUserInfo !== undefined) values.hashUserInfo = await client.getDestinationHashUserInfo(id)
        if (edit.instanced !== undefined) {
          let more: string | null = null
          do {
            const page = await client.destinationDispatchPage(id, more)
            for (const d of page.items) if (d.id) instanced.push({ id: d.id, instanced: d.data?.instanced === true })
            more = page.more
          } while (more)
        }
      }
      if (edit.cssUrl !== undefined) values.cssUrl = edit.cssUrl
      const before = toCompanyDelivery(row)
      await deps.db.transaction(async (tx) => {
        await repository.updateCompany(id, values, tx)
        await repository.setInstanced(instanced, tx)
        const after = toCompanyDelivery((await repository.findCompany(id, tx)) ?? row)
        await activity.record(
          {
            action: 'DELIVERY_SETTINGS_UPDATED',
            actor: ctx.actor,
            ipAddress: ctx.ip,
            details: {
              companyId: id,
              companyName: row.shownName,
              changes: changesOf(before, {
                launchAuth: after.launchAuth,
                instancing: after.instancing,
                hashUserInfo: after.hashUserInfo,
                cssUrl: after.cssUrl,
              }),
            },
          },
          tx,
        )
      })
      return toCompanyDelivery(await readCompany(ctx.viewer, id))
    },

    async companyLicenceCount(viewer: EditContext['viewer'], id: string): Promise<CompanyLicenceCount> {
      await readCompany(viewer, id)
      const count = await repository.companyLicenceCount(id)
      return { companyId: id, ...count, extraRegistrations: Math.max(0, count.registrations - count.learners) }
    },

    async licenceCount(viewer: EditContext['viewer'], id: string): Promise<LicenceCount> {
      await deps.dispatches.requireVisible(viewer, id)
      const count = await repository.licenceCount(id, 20)
      return {
        dispatchId: id,
        registrations: count.registrations,
        learners: count.learners,
        repeatLearners: count.repeatLearners,
        extraRegistrations: Math.max(0, count.registrations - count.learners),
        learnersShown: count.sample.map((l) => ({
          learnerId: l.learnerId,
          name: [l.firstName, l.lastName].filter(Boolean).join(' ') || l.learnerId,
          email: l.email,
          registrations: l.registrations,
        })),
      }
    },

    async dispatch(viewer: EditContext['viewer'], id: string): Promise<DispatchDelivery> {
      const row = await deps.dispatches.requireVisible(viewer, id)
      const [own, company] = await Promise.all([repository.findDispatch(id), repository.findCompany(row.destinationId)])
      if (!own) throw new AppError('NOT_FOUND', 'Dispatch not found.')
      return {
        dispatchId: id,
        companyId: row.destinationId,
        instanced: own.instanced,
        hashUserInfo: own.hashUserInfo ?? company?.hashUserInfo ?? null,
        cssUrl: own.cssUrl,
        effectiveCssUrl: own.cssUrl ?? company?.cssUrl ?? null,
        companyLaunchAuth: company ? launchAuthOf(company) : null,
        instancingExplanation: INSTANCING_EXPLANATION,
      }
    },

    async updateDispatch(id: string, body: UpdateDispatchDeliveryBody, ctx: EditContext): Promise<DispatchDelivery> {
      const edit = parseDeliveryEdit(body)
      const row = await deps.dispatches.requireVisible(ctx.viewer, id)
      const before = await repository.findDispatch(id)
      const values: { instanced?: boolean; hashUserInfo?: boolean; cssUrl?: string | null } = {}
      if (edit.instanced !== undefined || edit.hashUserInfo !== undefined) {
        const client = requireClient()
        if (edit.instanced !== undefined) await client.updateDispatch(id, { instanced: edit.instanced })
        if (edit.hashUserInfo !== undefined) await client.setDispatchHashUserInfo(id, edit.hashUserInfo)
        if (edit.instanced !== undefined) values.instanced = (await client.getDispatch(id)).instanced === true
        if (edit.hashUserInfo !== undefined) values.hashUserInfo = await client.getDispatchHashUserInfo(id)
      }
      if (edit.cssUrl !== undefined) values.cssUrl = edit.cssUrl
      await deps.db.transaction(async (tx) => {
        await repository.updateDispatch(id, values, tx)
        await activity.record(
          {
            action: 'DELIVERY_SETTINGS_UPDATED',
            actor: ctx.actor,
            ipAddress: ctx.ip,
            details: {
              dispatchId: id,
              companyId: row.destinationId,
              courseTitle: row.courseTitle,
              changes: changesOf({ ...before }, values),
            },
          },
          tx,
        )
      })
      return this.dispatch(ctx.viewer, id)
    },
  }
}
export type DeliveryService = ReturnType<typeof createDeliveryService>

/** The module's parts, built once in app.ts: the repository (packages read style sheets from it), the settings and LTI. */
export function createDelivery(deps: Omit<Parameters<typeof createDeliveryService>[0], 'repository'>) {
  const repository = createDeliveryRepository(deps.db)
  return { repository, service: createDeliveryService({ ...deps, repository }), lti: createLtiService(deps) }
}
