import { randomUUID } from 'node:crypto'
import {
  COURSE_REQUEST_MESSAGES,
  DISPATCH_ACTION_MESSAGES as M,
  dispatchExistsMessage,
  type CourseRequest,
  type FulfilCourseRequestBody,
} from '@portal/shared'
import type { Db } from '../../db/client'
import { AppError } from '../../lib/app-error'
import type { ActivityRepository } from '../activity-logs/activity.repository'
import { titleOf } from '../courses/courses.mapper'
import { DispatchConflictError } from '../dispatches/dispatch-conflict'
import { requirePair } from '../dispatches/dispatch-create.service'
import { mirrorProviderDispatch, type DispatchMirror } from '../dispatches/dispatch-mirror.service'
import type { DispatchPairRepository, PairDispatch } from '../dispatches/dispatch-pair.repository'
import type { ScormCloudClient } from '../scorm-cloud/scorm-cloud.client'
import { ScormCloudError } from '../scorm-cloud/scorm-cloud.errors'
import type { CourseRequestsRepository } from './course-requests.repository'
import { toCourseRequest, type RequestContext, type Requestor } from './course-requests.service'
import type { FulfilIntent, FulfilState, RequestFulfilRepository } from './request-fulfil.repository'
import { auditEntry, changeActorOf } from '../../lib/actor'
import { nameChangeActor } from '../../db/change-actor'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** What this fulfilment sets out to do; a recorded one is finished as first asked. */
function intentOf(
  state: FulfilState,
  pairDispatch: PairDispatch | null,
  body: FulfilCourseRequestBody,
  conflict: (id: string) => Error,
): FulfilIntent {
  // A retry: the recorded target stands while it is still the pair's dispatch (or there is none).
  if (state.intent && (!pairDispatch || pairDispatch.id === state.intent.dispatchId)) return state.intent
  if (body.mode === 'create') {
    if (pairDispatch) throw conflict(pairDispatch.id)
    return { mode: 'create', dispatchId: randomUUID(), registrationCap: body.registrationCap ?? state.licenses }
  }
  if (!pairDispatch) throw new AppError('RULE_VIOLATION', M.noDispatchToAdd)
  // An unlimited dispatch stays unlimited: adding to "no cap" would impose one.
  const added = pairDispatch.registrationCap === 0 ? 0 : pairDispatch.registrationCap + state.licenses
  return { mode: 'add', dispatchId: pairDispatch.id, registrationCap: body.registrationCap ?? added }
}

/**
 * POST /api/course-requests/{id}/fulfil: "Create dispatch" for the requestor's
 * company with the requested licenses as the cap, or "Add N licenses" to its dispatch of the
 * course; either marks the request PROCESSED and links it to the dispatch.
 *
 * Idempotent: the target (dispatch id and the cap it ends with, an absolute value) is recorded
 * on the request before SCORM Cloud is called. A retry after any partial failure, the provider
 * having accepted or not, repeats that target: it looks the dispatch up before creating it, and
 * setting a cap to the same value twice changes nothing. A request already fulfilled answers
 * as it is. A definitive refusal by the provider clears the target (nothing happened upstream).
 */
export function createRequestFulfilService(deps: {
  db: Db
  requests: CourseRequestsRepository
  fulfilments: RequestFulfilRepository
  pairs: DispatchPairRepository
  mirror: DispatchMirror
  activity: ActivityRepository
  client: () => ScormCloudClient | null
}) {
  const { requests, fulfilments, pairs, activity } = deps

  async function view(id: string, viewer: Requestor): Promise<CourseRequest> {
    const row = await requests.find(id)
    if (!row) throw new AppError('NOT_FOUND', COURSE_REQUEST_MESSAGES.requestNotFound)
    return toCourseRequest(row, viewer.role)
  }

  /** Brings SCORM Cloud to the intent; returns its read of the dispatch afterwards. */
  async function applyUpstream(client: ScormCloudClient, intent: FulfilIntent, companyId: string, courseId: string) {
    if (intent.mode === 'create') {
      const existing = await client.getDispatch(intent.dispatchId).catch((error: unknown) => {
        if (error instanceof ScormCloudError && error.providerStatus === 404) return null
        throw error
      })
      if (!existing) {
        await client.createDispatch(intent.dispatchId, {
          destinationId: companyId,
          courseId,
          registrationCap: intent.registrationCap,
        })
      } else if ((existing.registrationCap ?? 0) !== intent.registrationCap) {
        await client.updateDispatch(intent.dispatchId, { registrationCap: intent.registrationCap })
      }
    } else {
      await client.updateDispatch(intent.dispatchId, { registrationCap: intent.registrationCap })
    }
    return client.getDispatch(intent.dispatchId)
  }

  return {
    async fulfil(
      viewer: Requestor,
      id: string,
      body: FulfilCourseRequestBody,
      ctx: RequestContext,
    ): Promise<CourseRequest> {
      const state = UUID.test(id) ? await fulfilments.state(id) : null
      if (!state) throw new AppError('NOT_FOUND', COURSE_REQUEST_MESSAGES.requestNotFound)
      if (!state.intent && state.dispatchId && state.status !== 'PENDING') return view(id, viewer)
      if (!state.companyId) throw new AppError('RULE_VIOLATION', M.noCompany)
      const pair = await requirePair(pairs, state.companyId, state.courseId)
      const conflict = (dispatchId: string) =>
        new DispatchConflictError(dispatchId, dispatchExistsMessage(pair.company.shownName, titleOf(pair.course)))
      const client = deps.client()
      if (!client) throw new AppError('NOT_READY', M.notConfigured)

      const pairDispatch = await pairs.findPairDispatch(pair.company.id, pair.course.id)
      const intent = await fulfilments.claim(id, intentOf(state, pairDispatch, body, conflict))
      if (intent.mode === 'create' && !pairDispatch) {
        // Made outside this request (another screen, not yet synced): never a second dispatch.
        const upstream = await client.dispatchOfPair(pair.company.id, pair.course.id)
        if (upstream && upstream.id !== intent.dispatchId) {
          await mirrorProviderDispatch(deps.mirror, upstream.id, upstream.data, pair)
          await fulfilments.release(id)
          throw conflict(upstream.id)
        }
      }
      let fresh
      try {
        fresh = await applyUpstream(client, intent, pair.company.id, pair.course.id)
      } catch (error) {
        if (error instanceof ScormCloudError && !error.retryable && error.providerStatus >= 400) {
          await fulfilments.release(id)
        }
        throw error
      }

      const before = pairDispatch?.registrationCap ?? null
      await deps.db.transaction(async (tx) => {
        // The dispatch history records the new dispatch or the raised cap under the fulfilling admin.
        await nameChangeActor(tx, changeActorOf(ctx))
        await mirrorProviderDispatch(deps.mirror, intent.dispatchId, fresh, pair, tx)
        await fulfilments.complete(id, intent.dispatchId, tx)
        const common = {
          dispatchId: intent.dispatchId,
          companyId: pair.company.id,
          companyName: pair.company.shownName,
          courseId: pair.course.id,
          courseTitle: titleOf(pair.course),
        }
        await activity.record(
          {
            action: intent.mode === 'create' ? 'DISPATCH_CREATED' : 'DISPATCH_UPDATED',
            actor: ctx.actor,
            ipAddress: ctx.ip,
            details:
              intent.mode === 'create'
                ? { ...common, registrationCap: intent.registrationCap, requestId: id }
                : { ...common, requestId: id, changes: { registrationCap: { before, after: intent.registrationCap } } },
          },
          tx,
        )
        await activity.record(
          auditEntry(ctx, 'COURSE_REQUEST_STATUS_UPDATED', {
            requestId: id,
            ...common,
            before: state.status,
            after: 'PROCESSED',
            fulfilment: intent.mode,
          }),
          tx,
        )
      })
      return view(id, viewer)
    },
  }
}
export type RequestFulfilService = ReturnType<typeof createRequestFulfilService>
