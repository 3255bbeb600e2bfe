import {
  BULK_MAX_DISPATCHES,
  RENEWAL_MESSAGES as M,
  ownCompanyOnly,
  type Renewal,
  type ScheduleRenewalBody,
} from '@portal/shared'
import type { Db } from '../../db/client'
import { AppError } from '../../lib/app-error'
import type { Actor } from '../../lib/actor'
import type { Viewer } from '../../lib/viewer'
import type { DispatchCountService } from './dispatch-count.service'
import type { DispatchUpdateService, EditContext } from './dispatch-update.service'
import { escapeHtml, portalLink } from '../mail/mail-render'
import type { MailOutbox } from '../mail/mail.parts'
import { ScormCloudError } from '../scorm-cloud/scorm-cloud.errors'
import type {
  NewRenewal,
  RenewalRow,
  RenewalsRepository,
  Selection,
  Staff,
  TargetDispatch,
} from './renewals.repository'

/** Attempts of one renewal before it is reported failed; the waits between them double. */
export const RENEWAL_MAX_ATTEMPTS = 3
export const RENEWAL_RETRY_BASE_MS = 10 * 60_000
/** A renewal still running after this was left by a worker that died: it is claimed again. */
export const RENEWAL_LEASE_MS = 15 * 60_000

/** The UTC day of an instant, yyyy-MM-dd: renewal days are UTC days. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10)

const rule = (message: string, field?: string) =>
  new AppError('RULE_VIOLATION', message, field ? { details: [{ field, message }] } : {})

/** The changes a renewal carries, checked; the same checks serve a bulk "schedule a renewal". */
export interface RenewalChange {
  runOn: string
  registrationCap?: number
  expirationDate?: string
  resetCount?: boolean
  rolloverMonths?: number
  confirmBelowCount?: boolean
}

/** A real calendar day (2027-02-30 is not). */
const isDay = (day: string) => {
  const ms = Date.parse(`${day}T00:00:00.000Z`)
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === day
}

export function checkRenewalChange(change: RenewalChange, now: Date): void {
  if (!isDay(change.runOn)) throw rule('Invalid renewal date. Use YYYY-MM-DD.', 'runOn')
  if (change.runOn < utcDay(now)) throw rule(M.dateInPast, 'runOn')
  if (change.expirationDate !== undefined) {
    if (!isDay(change.expirationDate)) throw rule('Invalid expiration date. Use YYYY-MM-DD.', 'expirationDate')
    if (change.expirationDate < change.runOn) throw rule(M.expiryBeforeRenewal, 'expirationDate')
  }
  if (
    change.registrationCap === undefined &&
    change.expirationDate === undefined &&
    !change.resetCount &&
    change.rolloverMonths === undefined
  )
    // Any one of the four would do: each is named.
    throw new AppError('RULE_VIOLATION', M.nothingToChange, {
      details: ['registrationCap', 'expirationDate', 'resetCount', 'rolloverMonths'].map((field) => ({
        field,
        message: M.nothingToChange,
      })),
    })
}

/**
 * A new cap below what a dispatch has used needs the caller's confirmation (0 is no cap; a
 * counter reset in the same change starts the count from 0).
 */
export function checkCapAgainstCounts(
  targets: TargetDispatch[],
  cap: number | undefined,
  opts: { resetCount?: boolean; confirmBelowCount?: boolean },
): void {
  if (cap === undefined || cap === 0 || opts.resetCount || opts.confirmBelowCount) return
  const over = targets.find((t) => t.registrationCount > cap)
  if (over) throw rule(M.capBelowCount(over.registrationCount), 'registrationCap')
}

/**
 * The dispatches a selection names, checked: some, not too many, all existing and live, all of
 * the named company, and all within a company-scoped caller's own company.
 */
export async function resolveSelection(
  repository: Pick<RenewalsRepository, 'targets'>,
  viewer: Viewer,
  selection: Selection,
): Promise<TargetDispatch[]> {
  const ids = selection.dispatchIds ? [...new Set(selection.dispatchIds)] : undefined
  if (ids && ids.length > BULK_MAX_DISPATCHES) throw rule(M.tooMany, 'dispatchIds')
  if (ids ? ids.length === 0 : !selection.companyId && !selection.filter) throw rule(M.noDispatches, 'dispatchIds')
  const scoped = ownCompanyOnly(viewer.role)
  if (scoped && (!viewer.companyId || (selection.companyId && selection.companyId !== viewer.companyId)))
    throw new AppError('FORBIDDEN', M.otherCompany)
  const companyId = selection.companyId ?? (scoped ? viewer.companyId! : undefined)
  const targets = await repository.targets({ ...selection, dispatchIds: ids, companyId }, BULK_MAX_DISPATCHES + 1)
  if (targets.length > BULK_MAX_DISPATCHES) throw rule(M.tooMany, 'dispatchIds')
  if (ids && (targets.length < ids.length || targets.some((t) => t.removed)))
    throw new AppError('NOT_FOUND', M.notFound)
  if (companyId && targets.some((t) => t.companyId !== companyId)) throw new AppError('FORBIDDEN', M.otherCompany)
  if (targets.length === 0) throw rule(M.noDispatches, 'dispatchIds')
  if (!ids) return targets
  // In the order they were selected (a bulk run's progress lists them so).
  const order = new Map(ids.map((id, i) => [id, i]))
  return targets.sort((a, b) => order.get(a.id)! - order.get(b.id)!)
}

export const staffOf = (actor: Actor | null): Staff => ({
  id: actor?.id ?? null,
  name: actor?.name ?? null,
  email: actor?.email ?? null,
})

export const newRenewal = (t: TargetDispatch, change: RenewalChange): NewRenewal => ({
  dispatchId: t.id,
  companyId: t.companyId,
  runOn: change.runOn,
  registrationCap: change.registrationCap ?? null,
  expirationDate: change.expirationDate ?? null,
  resetCount: change.resetCount ?? false,
  rolloverMonths: change.rolloverMonths ?? null,
})

/**
 * Whom a background change is logged under: the staff member who asked for it, named with
 * the renewal or bulk run that carried it out, so the dispatch's history tells both.
 */
export function backgroundContext(kind: 'Renewal' | 'Bulk run', runId: string, staff: Staff): EditContext {
  const who = staff.name ?? staff.email ?? 'staff'
  const label = `${kind} ${runId.slice(0, 8)} scheduled by ${who}`
  return {
    viewer: { role: 'admin', companyId: null },
    actor: { id: staff.id, name: label, email: staff.email },
    // The licence history names the run (a system actor), not the staff member as if they had
    // made the change by hand at that moment.
    changeActor: { kind: 'system', id: runId, label, email: staff.email },
    ip: '',
  }
}

/** Why a failure can never succeed on a retry (the dispatch is gone), or null. */
export function permanentReason(error: unknown): string | null {
  if (error instanceof ScormCloudError) return error.providerStatus === 404 ? M.removedUpstream : null
  if (error instanceof AppError && error.code === 'NOT_FOUND') return M.removedUpstream
  return null
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

function toRenewal(r: RenewalRow): Renewal {
  return {
    id: r.id,
    dispatchId: r.dispatchId,
    courseTitle: r.courseTitle,
    companyId: r.companyId,
    runOn: r.runOn,
    registrationCap: r.registrationCap,
    expirationDate: r.expirationDate,
    resetCount: r.resetCount,
    rolloverMonths: r.rolloverMonths,
    source: r.source,
    status: r.status,
    attempts: r.attempts,
    lastError: r.lastError,
    scheduledBy: r.scheduledByName ?? r.scheduledByEmail,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
  }
}

function describe(r: RenewalRow): string {
  const parts: string[] = []
  if (r.registrationCap !== null) parts.push(`cap ${r.registrationCap === 0 ? 'unlimited' : r.registrationCap}`)
  if (r.expirationDate !== null) parts.push(`expiry ${r.expirationDate}`)
  if (r.resetCount) parts.push('counter reset')
  if (r.rolloverMonths !== null) parts.push(`rollover every ${r.rolloverMonths} month(s) at expiry`)
  return parts.join(', ')
}

export interface RenewalsDeps {
  db: Db
  repository: RenewalsRepository
  updates: DispatchUpdateService
  counts: DispatchCountService
  mails: MailOutbox
  publicUrl: string
  log?: { error(obj: unknown, msg: string): void }
}

/**
 * Scheduled renewals (docs/product-rules.md, "Scheduled renewals"): scheduled by staff for a
 * day, carried out by the renewal sweep on that day through the dispatch update and counter
 * reset services (SCORM Cloud first, then the mirror and the dispatch's history), retried with
 * growing waits, and reported to the company's account manager by mail.
 */
export function createRenewalsService(deps: RenewalsDeps) {
  const { repository } = deps

  async function carryOut(r: RenewalRow): Promise<void> {
    const ctx = backgroundContext('Renewal', r.id, {
      id: r.scheduledById,
      name: r.scheduledByName,
      email: r.scheduledByEmail,
    })
    if (r.registrationCap !== null || r.expirationDate !== null) {
      await deps.updates.update(
        r.dispatchId,
        {
          ...(r.registrationCap !== null ? { registrationCap: r.registrationCap } : {}),
          ...(r.expirationDate !== null ? { expirationDate: r.expirationDate } : {}),
        },
        ctx,
      )
    }
    if (r.resetCount) await deps.counts.reset(r.dispatchId, ctx)
    if (r.rolloverMonths !== null) {
      // The rollover applies from this renewal's day on; the dispatch must still exist.
      const [target] = await repository.targets({ dispatchIds: [r.dispatchId] }, 1)
      if (!target || target.removed) throw new AppError('NOT_FOUND', M.removedUpstream)
      await repository.setRollover(r.dispatchId, r.rolloverMonths, {
        id: r.scheduledById,
        name: r.scheduledByName,
        email: r.scheduledByEmail,
      })
    }
  }

  async function report(r: RenewalRow, status: 'done' | 'failed', error: string | null, now: Date) {
    const manager = await repository.accountManager(r.companyId)
    const to = manager?.email ?? r.scheduledByEmail
    await deps.db.transaction(async (tx) => {
      const finished = await repository.finish(r.id, status, error, now, tx)
      if (!finished || !to) return
      const link = portalLink(deps.publicUrl, `/dispatches/${encodeURIComponent(r.dispatchId)}`)
      const title = `${status === 'done' ? 'Renewal carried out' : 'Renewal failed'}: ${r.courseTitle || r.dispatchId}`
      const lines = [
        title,
        `Dispatch: ${r.dispatchId}`,
        `Renewal day: ${r.runOn}`,
        `Changes: ${describe(r)}`,
        ...(error ? [`Reason: ${error}`] : []),
        link,
      ]
      await deps.mails.enqueue(
        [
          {
            idempotencyKey: `renewal:${r.id}:${status}`,
            kind: 'renewal',
            userId: manager?.id ?? r.scheduledById,
            to,
            subject: `[Dispatch Portal] ${title}`.replace(/[\r\n]+/g, ' ').slice(0, 200),
            text: lines.join('\n'),
            html: `<p>${lines.slice(0, -1).map(escapeHtml).join('<br>')}</p><p><a href="${escapeHtml(link)}">Open the dispatch</a></p>`,
          },
        ],
        tx,
      )
    })
  }

  return {
    async schedule(viewer: Viewer, actor: Actor | null, body: ScheduleRenewalBody, now: Date) {
      checkRenewalChange(body, now)
      const targets = await resolveSelection(repository, viewer, body)
      checkCapAgainstCounts(targets, body.registrationCap, body)
      const ids = await repository.insert(
        targets.map((t) => newRenewal(t, body)),
        staffOf(actor),
      )
      return { scheduled: ids.length, ids }
    },

    async list(companyId: string | undefined, now: Date) {
      return { renewals: (await repository.list(companyId, now)).map(toRenewal) }
    },

    async cancel(id: string, now: Date): Promise<Renewal> {
      const found = await repository.find(id)
      if (!found) throw new AppError('NOT_FOUND', 'Renewal not found.')
      if (!(await repository.cancel(id, now))) throw new AppError('CONFLICT', M.notCancellable)
      return toRenewal((await repository.find(id))!)
    },

    /**
     * Carries out every renewal due at `now` (and makes the renewals of rollovers whose expiry
     * has come). Safe to run on several workers at once: each renewal is claimed by one.
     */
    async runDue(now: Date): Promise<{ done: number; failed: number; retrying: number }> {
      const today = utcDay(now)
      await repository.makeRolloverRenewals(today)
      const outcome = { done: 0, failed: 0, retrying: 0 }
      for (;;) {
        const batch = await repository.claimDue(now, today, RENEWAL_LEASE_MS, 20)
        if (batch.length === 0) return outcome
        for (const r of batch) {
          try {
            await carryOut(r)
            await report(r, 'done', null, now)
            outcome.done++
          } catch (error) {
            const permanent = permanentReason(error)
            const reason = permanent ?? messageOf(error)
            if (permanent || r.attempts >= RENEWAL_MAX_ATTEMPTS) {
              await report(r, 'failed', reason, now)
              outcome.failed++
            } else {
              const wait = RENEWAL_RETRY_BASE_MS * 2 ** (r.attempts - 1)
              await repository.retryLater(r.id, new Date(now.getTime() + wait), reason)
              outcome.retrying++
            }
            deps.log?.error({ err: error, renewalId: r.id }, 'renewal not carried out')
          }
        }
      }
    },
  }
}
export type RenewalsService = ReturnType<typeof createRenewalsService>
