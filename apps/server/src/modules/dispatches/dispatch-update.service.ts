import type { UpdateDispatchSchema as ProviderUpdate } from '../scorm-cloud/scorm-cloud.types'
import { isStorableInstant, type Dispatch, type UpdateDispatchBody } from '@portal/shared'
import type { Db } from '../../db/client'
import { AppError } from '../../lib/app-error'
import type { ActivityRepository, Actor } from '../activity-logs/activity.repository'
import type { ScormCloudClient } from '../scorm-cloud/scorm-cloud.client'
import { mapDispatch } from '../sync/sync.mapper'
import { toDispatch, type DispatchRow } from './dispatches.mapper'
import type { DispatchesRepository, MirrorUpdate } from './dispatches.repository'
import type { Viewer } from '../../lib/viewer'
import type { DispatchesService } from './dispatches.service'
import { auditEntry, changeActorOf, type ChangeActor } from '../../lib/actor'
import { nameChangeActor } from '../../db/change-actor'

export interface EditContext {
  viewer: Viewer
  actor: Actor | null
  /**
   * Who the dispatch history records the change under; without it, `actor` as a portal user.
   * A system caller (a scheduled renewal) names itself here: { kind: 'system', id, label }.
   */
  changeActor?: ChangeActor
  ip: string
  log?: { error(obj: unknown, msg: string): void }
}

/** What the services that write through SCORM Cloud share: built once in app.ts (providerDeps). */
export interface ProviderDeps {
  db: Db
  activity: ActivityRepository
  dispatches: DispatchesService
  /** Read at call time: the client is wired by the sync module and may be absent (no credentials). */
  client: () => ScormCloudClient | null
}

export interface UpdateOutcome {
  /** The dispatch as the mirror now holds it; with mirrorBehind, as the edit made it upstream. */
  dispatch: Dispatch
  /** SCORM Cloud took the change but the mirror does not hold it yet (answered 202). */
  mirrorBehind: boolean
}

/** The admin's edit after validation: only the fields that were sent. */
interface Edit {
  enabled?: boolean
  registrationCap?: number
  /** null clears the expiry. */
  expirationDate?: Date | null
  notes?: string
  tags?: string[]
}

const DAY = /^\d{4}-\d{2}-\d{2}$/
/** A date-time must carry its zone: a bare local time would depend on the server's zone. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

export const EDIT_MESSAGES = {
  nothingToUpdate: 'Nothing to update.',
  invalidExpiration: 'Invalid expiration date. Use YYYY-MM-DD or an ISO date-time.',
  expirationOutOfRange: 'Expiration date must be from 1000-01-01 to 9999-12-31.',
  notConfigured: 'SCORM Cloud is not configured.',
  /** SCORM Cloud took the change, the portal's copy did not (202). */
  mirrorBehind:
    'Saved in SCORM Cloud, but the portal could not record the change yet. It will show here after the next sync.',
} as const

const invalid = (message: string, field?: string) =>
  new AppError('RULE_VIOLATION', message, field ? { details: [{ field, message }] } : {})

/**
 * YYYY-MM-DD (midnight UTC of that day) or an ISO date-time with a zone; a real calendar date,
 * in the range both SCORM Cloud and the mirror hold (0000-01-01 was accepted by
 * the provider, then failed the mirror's write on this edit and every later one).
 */
export function parseExpiration(raw: string): Date {
  const value = raw.trim()
  const ms = DAY.test(value) ? Date.parse(`${value}T00:00:00.000Z`) : DATE_TIME.test(value) ? Date.parse(value) : NaN
  // Date.parse rolls 2026-02-30 over to March: the round trip catches it.
  if (Number.isNaN(ms) || (DAY.test(value) && new Date(ms).toISOString().slice(0, 10) !== value)) {
    throw invalid(EDIT_MESSAGES.invalidExpiration, 'expirationDate')
  }
  const date = new Date(ms)
  if (!isStorableInstant(date)) throw invalid(EDIT_MESSAGES.expirationOutOfRange, 'expirationDate')
  return date
}

export function parseEdit(body: UpdateDispatchBody): Edit {
  const edit: Edit = {}
  if (body.enabled !== undefined) edit.enabled = body.enabled
  if (body.registrationCap !== undefined) edit.registrationCap = body.registrationCap
  if (body.expirationDate !== undefined) {
    // null clears; so does "": the server's Ajv (coerceTypes) turns a null sent for the
    // String|Null union into "" before the handler sees it, and an emptied date field means the same.
    const raw = body.expirationDate?.trim() ?? ''
    edit.expirationDate = raw === '' ? null : parseExpiration(raw)
  }
  if (body.notes !== undefined) edit.notes = body.notes
  if (body.tags !== undefined) edit.tags = [...new Set(body.tags.map((t) => t.trim()).filter(Boolean))]
  if (Object.keys(edit).length === 0) throw invalid(EDIT_MESSAGES.nothingToUpdate)
  return edit
}

/** The SCORM Cloud calls an edit needs, in order; nothing is sent before all input is valid. */
async function sendToProvider(client: ScormCloudClient, row: DispatchRow, edit: Edit): Promise<void> {
  const update: ProviderUpdate = {}
  if (edit.registrationCap !== undefined) update.registrationCap = edit.registrationCap
  // docs/scorm-cloud-api.md §6.2: "none" clears the expiry.
  if (edit.expirationDate !== undefined) update.expirationDate = edit.expirationDate?.toISOString() ?? 'none'
  if (edit.notes !== undefined) update.notes = edit.notes
  if (Object.keys(update).length > 0) {
    if (edit.enabled !== undefined) update.enabled = edit.enabled
    await client.updateDispatch(row.id, update)
  } else if (edit.enabled !== undefined) {
    await client.setDispatchEnabled(row.id, edit.enabled)
  }
  if (edit.tags) {
    // Against the tags the admin was shown (the mirror): a tag added upstream since the last
    // sync, which the admin never saw, is not removed behind their back.
    const wanted = new Set(edit.tags)
    const shown = new Set(row.tags)
    const added = edit.tags.filter((t) => !shown.has(t))
    const removed = row.tags.filter((t) => !wanted.has(t))
    if (added.length > 0) await client.addDispatchTags(row.id, added)
    if (removed.length > 0) await client.removeDispatchTags(row.id, removed)
  }
}

type Audited = Pick<DispatchRow, 'enabled' | 'registrationCap' | 'expirationDate' | 'notes' | 'tags'>
const AUDITED = ['enabled', 'registrationCap', 'expirationDate', 'notes', 'tags'] as const
const comparable = (v: Audited[keyof Audited]) => (v instanceof Date ? v.toISOString() : v)

/** DISPATCH_UPDATED details: each field whose mirror value changed, before and after. */
function changesOf(before: Audited, after: Audited) {
  const changes: Record<string, { before: unknown; after: unknown }> = {}
  for (const key of AUDITED) {
    const [b, a] = [comparable(before[key]), comparable(after[key])]
    if (JSON.stringify(b) !== JSON.stringify(a)) changes[key] = { before: b, after: a }
  }
  return changes
}

/**
 * The admin dispatch controls (docs/product-decisions.md D10, D4): every value checked against what both SCORM Cloud
 * and the mirror hold, then SCORM Cloud first, then the mirror. A provider refusal
 * (ScormCloudError, 502 with its message) leaves the mirror and the log untouched. If a later
 * call of a multi-call edit fails, the provider may hold part of the edit; the next sync
 * brings the mirror level with it.
 */
export function createDispatchUpdateService(deps: ProviderDeps & { repository: DispatchesRepository }) {
  const { repository, activity } = deps

  /** The provider's dispatch after the edit, written to the mirror with its DISPATCH_UPDATED row. */
  async function mirrorEdit(client: ScormCloudClient, row: DispatchRow, ctx: EditContext): Promise<Dispatch> {
    const fresh = await client.getDispatch(row.id)
    const mapped = mapDispatch({
      id: row.id,
      data: {
        ...fresh,
        courseId: fresh.courseId || row.courseId,
        destinationId: fresh.destinationId || row.destinationId,
      },
    })
    if (!mapped) throw new AppError('UPSTREAM_FAILED', 'SCORM Cloud sent a dispatch the portal cannot read.')

    const values: MirrorUpdate = {
      enabled: mapped.enabled,
      allowNewRegistrations: mapped.allowNewRegistrations,
      instanced: mapped.instanced,
      registrationCount: mapped.registrationCount,
      registrationCap: mapped.registrationCap,
      expirationDate: mapped.expirationDate,
      tags: mapped.tags,
      notes: mapped.notes,
      ...(mapped.providerUpdated ? { providerUpdated: mapped.providerUpdated } : {}),
    }
    await deps.db.transaction(async (tx) => {
      // The history triggers record the cap, expiry, enabled and counter changes of this write.
      await nameChangeActor(tx, changeActorOf(ctx))
      await repository.updateMirror(row.id, values, tx)
      await activity.record(
        auditEntry(ctx, 'DISPATCH_UPDATED', {
          dispatchId: row.id,
          courseTitle: row.courseTitle,
          destinationName: row.destinationName,
          changes: changesOf(row, mapped),
        }),
        tx,
      )
    })
    return toDispatch(await deps.dispatches.requireVisible(ctx.viewer, row.id), ctx.viewer.role)
  }

  return {
    async update(id: string, body: UpdateDispatchBody, ctx: EditContext): Promise<UpdateOutcome> {
      const edit = parseEdit(body)
      const row = await deps.dispatches.requireVisible(ctx.viewer, id)
      const client = deps.client()
      if (!client) throw new AppError('NOT_READY', EDIT_MESSAGES.notConfigured)

      await sendToProvider(client, row, edit)
      // From here SCORM Cloud holds the change. A failure to read it back or to write the mirror
      // is not a refusal (such an edit answered 500 although it had landed): the answer
      // says the change is upstream, and the next sync, which reads dispatches updated since its
      // last run, brings the row level. The mirror is untouched, so nothing is half-written.
      try {
        return { dispatch: await mirrorEdit(client, row, ctx), mirrorBehind: false }
      } catch (error) {
        ctx.log?.error({ err: error, dispatchId: id }, 'dispatch edit saved in SCORM Cloud; mirror not updated')
        const edited = { ...row, ...edit }
        // Best effort: the database may be what failed.
        await activity
          .record({
            action: 'DISPATCH_UPDATED',
            actor: ctx.actor,
            ipAddress: ctx.ip,
            details: {
              dispatchId: id,
              courseTitle: row.courseTitle,
              destinationName: row.destinationName,
              changes: changesOf(row, edited),
              mirrorUpdated: false,
            },
          })
          .catch(() => undefined)
        return { dispatch: toDispatch(edited, ctx.viewer.role), mirrorBehind: true }
      }
    },
  }
}
export type DispatchUpdateService = ReturnType<typeof createDispatchUpdateService>
