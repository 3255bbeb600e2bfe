import { randomUUID } from 'node:crypto'
import {
  DISPATCH_ACTION_MESSAGES as M,
  dispatchExistsMessage,
  type CreateDispatchBody,
  type Dispatch,
} from '@portal/shared'
import type { Db } from '../../db/client'
import { AppError } from '../../lib/app-error'
import { recordActivity } from '../activity-logs/activity.repository'
import { titleOf } from '../courses/courses.mapper'
import type { ScormCloudClient } from '../scorm-cloud/scorm-cloud.client'
import { DispatchConflictError } from './dispatch-conflict'
import { mirrorProviderDispatch } from './dispatch-mirror.service'
import { createDispatchPairRepository, type PairCompany, type PairCourse } from './dispatch-pair.repository'
import { parseExpiration, type EditContext } from './dispatch-update.service'
import { toDispatch } from './dispatches.mapper'
import type { DispatchesService } from './dispatches.service'

const fieldError = (field: string, message: string) =>
  new AppError('RULE_VIOLATION', message, { details: [{ field, message }] })

/** The create form's values after the rules: tags trimmed and unique, expiry parsed. */
export function parseCreate(body: CreateDispatchBody) {
  const raw = body.expirationDate?.trim() ?? ''
  let expirationDate: Date | null = null
  try {
    expirationDate = raw === '' ? null : parseExpiration(raw)
  } catch (error) {
    throw fieldError('expirationDate', (error as Error).message)
  }
  return {
    registrationCap: body.registrationCap ?? 0, // SPEC §3: 0 or none is unlimited
    expirationDate,
    enabled: body.enabled ?? true,
    notes: body.notes?.trim() ?? '',
    tags: [...new Set((body.tags ?? []).map((t) => t.trim()).filter(Boolean))],
  }
}

/** The company and course of a new dispatch, present in the mirror, or a 400 naming the field. */
export async function requirePair(
  pairs: ReturnType<typeof createDispatchPairRepository>,
  companyId: string,
  courseId: string,
): Promise<{ company: PairCompany; course: PairCourse }> {
  const company = await pairs.findCompany(companyId)
  if (!company) throw fieldError('companyId', M.companyNotFound)
  const course = await pairs.findCourse(courseId)
  if (!course) throw fieldError('courseId', M.courseNotFound)
  return { company, course }
}

/**
 * POST /api/dispatches (issue #15): SCORM Cloud first, then the mirror row at once, so the next
 * list read shows it. One dispatch per course and company: a pair that exists, in the mirror or
 * upstream, is a 409 naming it (an upstream one is mirrored first, so the link works). The id is
 * ours (the provider's 204 names none): if the provider accepted and the mirror write failed, the
 * next attempt finds the pair upstream and converges, as does the next sync.
 */
export function createDispatchCreateService(deps: {
  db: Db
  dispatches: DispatchesService
  client: () => ScormCloudClient | null
}) {
  const pairs = createDispatchPairRepository(deps.db)

  return {
    async create(body: CreateDispatchBody, ctx: EditContext): Promise<Dispatch> {
      const values = parseCreate(body)
      const pair = await requirePair(pairs, body.companyId, body.courseId)
      const { company, course } = pair
      const conflict = (id: string) =>
        new DispatchConflictError(id, dispatchExistsMessage(company.shownName, titleOf(course)))

      const mirrored = await pairs.findPairDispatch(company.id, course.id)
      if (mirrored) throw conflict(mirrored.id)
      const client = deps.client()
      if (!client) throw new AppError('NOT_READY', M.notConfigured)

      const upstream = await client.dispatchOfPair(company.id, course.id)
      if (upstream) {
        await mirrorProviderDispatch(deps.db, upstream.id, upstream.data, pair)
        throw conflict(upstream.id)
      }
      const id = randomUUID()
      await client.createDispatch(id, {
        destinationId: company.id,
        courseId: course.id,
        registrationCap: values.registrationCap,
        enabled: values.enabled,
        notes: values.notes,
        tags: values.tags,
        ...(values.expirationDate ? { expirationDate: values.expirationDate.toISOString() } : {}),
      })
      const fresh = await client.getDispatch(id)
      await deps.db.transaction(async (tx) => {
        await mirrorProviderDispatch(tx, id, fresh, pair)
        await recordActivity(tx, {
          action: 'DISPATCH_CREATED',
          actor: ctx.actor,
          ipAddress: ctx.ip,
          details: {
            dispatchId: id,
            companyId: company.id,
            companyName: company.shownName,
            courseId: course.id,
            courseTitle: titleOf(course),
            registrationCap: values.registrationCap,
          },
        })
      })
      return toDispatch(await deps.dispatches.requireVisible(ctx.viewer, id), ctx.viewer.role)
    },
  }
}
export type DispatchCreateService = ReturnType<typeof createDispatchCreateService>
