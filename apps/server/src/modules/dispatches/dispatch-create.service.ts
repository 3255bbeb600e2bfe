import { createHash, randomUUID } from 'node:crypto'
import {
  DISPATCH_ACTION_MESSAGES as M,
  dispatchExistsMessage,
  type CreateDispatchBody,
  type Dispatch,
} from '@portal/shared'
import { AppError } from '../../lib/app-error'
import { titleOf } from '../courses/courses.mapper'
import { ScormCloudError } from '../scorm-cloud/scorm-cloud.errors'
import type { DispatchSchema } from '../scorm-cloud/scorm-cloud.types'
import { DispatchConflictError } from './dispatch-conflict'
import { mirrorProviderDispatch, type DispatchMirror } from './dispatch-mirror.service'
import type { DispatchPairRepository, PairCompany, PairCourse } from './dispatch-pair.repository'
import { parseExpiration, type EditContext, type ProviderDeps } from './dispatch-update.service'
import { toDispatch } from './dispatches.mapper'
import { auditEntry, changeActorOf } from '../../lib/actor'
import { nameChangeActor } from '../../db/change-actor'

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
    registrationCap: body.registrationCap ?? 0, // docs/product-rules.md §3: 0 or none is unlimited
    expirationDate,
    enabled: body.enabled ?? true,
    notes: body.notes?.trim() ?? '',
    tags: [...new Set((body.tags ?? []).map((t) => t.trim()).filter(Boolean))],
  }
}

/** The company and course of a new dispatch, present in the mirror, or a 400 naming the field. */
export async function requirePair(
  pairs: Pick<DispatchPairRepository, 'findCompany' | 'findCourse'>,
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
 * The dispatch id one submission stands for: derived from the user, their Idempotency-Key and
 * what they asked for, so every retry of that submission names the same dispatch, and nothing
 * else can (another user, another key, or the same key with other values gets another id).
 * Shaped as an RFC 9562 version-8 UUID, like the random ones made without a key.
 */
export function keyedDispatchId(userId: string, key: string, ask: unknown): string {
  const hash = createHash('sha256')
    .update(JSON.stringify(['dispatch-create', userId, key, ask]))
    .digest()
  hash[6] = (hash[6]! & 0x0f) | 0x80
  hash[8] = (hash[8]! & 0x3f) | 0x80
  const hex = hash.subarray(0, 16).toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/**
 * POST /api/dispatches: SCORM Cloud first, then the mirror row at once, so the next
 * list read shows it. One dispatch per course and company: a pair that exists, in the mirror or
 * upstream, is a 409 naming it (an upstream one is mirrored first, so the link works).
 *
 * Idempotent with an Idempotency-Key (docs/decisions.md): the id sent to SCORM Cloud is derived
 * from the user, the key and the values (keyedDispatchId). When SCORM Cloud applied a create but
 * its answer was lost, or the portal's answer to the browser was, the retry finds the pair's
 * dispatch under exactly that id: it is this submission's own, so the retry finishes it (mirror
 * row, DISPATCH_CREATED once) and answers 201 instead of a conflict with itself. A pair's
 * dispatch under any other id is a genuine conflict (409). Without a key, every call is new.
 */
export function createDispatchCreateService(
  deps: ProviderDeps & { pairs: DispatchPairRepository; mirror: DispatchMirror },
) {
  const { pairs, activity } = deps

  return {
    async create(body: CreateDispatchBody, ctx: EditContext, idempotencyKey?: string): Promise<Dispatch> {
      const values = parseCreate(body)
      const pair = await requirePair(pairs, body.companyId, body.courseId)
      const { company, course } = pair
      const conflict = (id: string) =>
        new DispatchConflictError(id, dispatchExistsMessage(company.shownName, titleOf(course)))
      const userId = ctx.actor?.id
      const keyed = Boolean(idempotencyKey && userId)
      const id =
        idempotencyKey && userId
          ? keyedDispatchId(userId, idempotencyKey, {
              companyId: company.id,
              courseId: course.id,
              ...values,
              expirationDate: values.expirationDate?.toISOString() ?? null,
            })
          : randomUUID()

      /** This submission's dispatch exists upstream: the mirror row and the one DISPATCH_CREATED row. */
      const finish = async (fresh: DispatchSchema | null): Promise<Dispatch> => {
        await deps.db.transaction(async (tx) => {
          // The history's first row (the dispatch's initial cap, expiry, state) names the creator.
          await nameChangeActor(tx, changeActorOf(ctx))
          if (fresh) await mirrorProviderDispatch(deps.mirror, id, fresh, pair, tx)
          // Two retries of one submission at once: one logs the creation, the other sees it.
          await pairs.lockCreation(id, tx)
          if (keyed && (await activity.dispatchCreationLogged(userId!, id, tx))) return
          await activity.record(
            auditEntry(ctx, 'DISPATCH_CREATED', {
              dispatchId: id,
              companyId: company.id,
              companyName: company.shownName,
              courseId: course.id,
              courseTitle: titleOf(course),
              registrationCap: values.registrationCap,
            }),
            tx,
          )
        })
        return toDispatch(await deps.dispatches.requireVisible(ctx.viewer, id), ctx.viewer.role)
      }

      const mirrored = await pairs.findPairDispatch(company.id, course.id)
      if (mirrored) {
        if (keyed && mirrored.id === id) return finish(null)
        throw conflict(mirrored.id)
      }
      const client = deps.client()
      if (!client) throw new AppError('NOT_READY', M.notConfigured)

      const upstream = await client.dispatchOfPair(company.id, course.id)
      if (upstream) {
        if (keyed && upstream.id === id) return finish(upstream.data ?? (await client.getDispatch(id)))
        await mirrorProviderDispatch(deps.mirror, upstream.id, upstream.data, pair)
        throw conflict(upstream.id)
      }
      try {
        await client.createDispatch(id, {
          destinationId: company.id,
          courseId: course.id,
          registrationCap: values.registrationCap,
          enabled: values.enabled,
          notes: values.notes,
          tags: values.tags,
          ...(values.expirationDate ? { expirationDate: values.expirationDate.toISOString() } : {}),
        })
      } catch (error) {
        // The same submission sent twice at once: the other one created it under this id.
        const mine = keyed && error instanceof ScormCloudError && error.providerStatus === 400
        const existing = mine ? await client.dispatchOfPair(company.id, course.id) : null
        if (existing?.id === id) return finish(existing.data ?? (await client.getDispatch(id)))
        throw error
      }
      return finish(await client.getDispatch(id))
    },
  }
}
export type DispatchCreateService = ReturnType<typeof createDispatchCreateService>
