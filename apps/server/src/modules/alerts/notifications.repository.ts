import { sql } from 'drizzle-orm'
import { alertMessage, NEAR_CAP_PERCENT, type Notification, type Role } from '@portal/shared'
import type { Db, DbOrTx } from '../../db/client'
import { visibleTo } from '../../db/alert-visibility'
import { rowsOf } from '../../db/statement'

/**
 * A user's notifications are the alerts the user may see (staff: all; a client: its
 * company's, in the SQL) with the user's read marks: read-all moves a per-user mark (every alert
 * up to it is read), single reads above it are rows of alert_read.
 */

export interface Viewer {
  id: string
  role: Role
  companyId: string | null
}

type Row = Record<string, unknown>
export const UNREAD_COUNT_CAP = 1000

const readThrough = (viewer: Viewer) =>
  sql`coalesce((select read_through from notification_cursor where user_id = ${viewer.id}::uuid), 0)`

function toNotification(r: Row): Notification {
  const base = {
    kind: r.kind as Notification['kind'],
    level: Number(r.level),
    courseTitle: String(r.course_title),
    companyName: String(r.company_name),
    registrationCount: Number(r.registration_count),
    registrationCap: Number(r.registration_cap),
  }
  return {
    id: Number(r.id),
    ...base,
    dispatchId: String(r.dispatch_id),
    companyId: String(r.company_id),
    expirationDate: r.expiration_date ? new Date(r.expiration_date as string).toISOString() : null,
    message: alertMessage(base),
    createdAt: new Date(r.created_at as string).toISOString(),
    read: Boolean(r.read),
  }
}

export function createNotificationsRepository(db: Db) {
  return {
    async list(viewer: Viewer, { limit, before }: { limit: number; before?: number }, tx: DbOrTx = db) {
      const rows = rowsOf(
        await tx.execute(sql`
      select a.id::text, a.kind, a.level, a.dispatch_id, a.company_id, a.company_name, a.course_title,
        a.registration_count, a.registration_cap, a.expiration_date, a.created_at,
        (a.id <= ${readThrough(viewer)} or exists (
          select 1 from alert_read r where r.user_id = ${viewer.id}::uuid and r.alert_id = a.id)) as read
      from alert a
      where ${visibleTo(viewer)} ${before ? sql`and a.id < ${before}` : sql``}
      order by a.id desc
      limit ${limit + 1}`),
      )
      const items = rows.slice(0, limit).map(toNotification)
      return { items, nextBefore: rows.length > limit ? items[items.length - 1]!.id : null }
    },

    async unreadCount(viewer: Viewer, tx: DbOrTx = db): Promise<number> {
      const rows = rowsOf(
        await tx.execute(sql`
      select count(*)::int as n from (
        select 1 from alert a
        where ${visibleTo(viewer)} and a.id > ${readThrough(viewer)}
          and not exists (select 1 from alert_read r where r.user_id = ${viewer.id}::uuid and r.alert_id = a.id)
        limit ${UNREAD_COUNT_CAP}) as u`),
      )
      return Number(rows[0]?.n ?? 0)
    },

    /** False when the alert does not exist or the viewer may not see it (the route's 404). */
    async markRead(viewer: Viewer, alertId: number, tx: DbOrTx = db): Promise<boolean> {
      const rows = rowsOf(
        await tx.execute(sql`
      with target as (select a.id from alert a where a.id = ${alertId} and ${visibleTo(viewer)})
      insert into alert_read (user_id, alert_id)
      select ${viewer.id}::uuid, id from target
      on conflict do nothing
      returning alert_id`),
      )
      if (rows.length > 0) return true
      const exists = rowsOf(
        await tx.execute(sql`select 1 from alert a where a.id = ${alertId} and ${visibleTo(viewer)}`),
      )
      return exists.length > 0
    },

    async markAllRead(viewer: Viewer, tx: DbOrTx = db): Promise<void> {
      await tx.transaction(async (tx) => {
        const top = rowsOf(
          await tx.execute(sql`select coalesce(max(a.id), 0)::text as id from alert a where ${visibleTo(viewer)}`),
        )
        const id = Number(top[0]?.id ?? 0)
        await tx.execute(sql`
        insert into notification_cursor (user_id, read_through) values (${viewer.id}::uuid, ${id})
        on conflict (user_id) do update set read_through = greatest(notification_cursor.read_through, excluded.read_through)`)
        await tx.execute(sql`delete from alert_read where user_id = ${viewer.id}::uuid and alert_id <= ${id}`)
      })
    },

    /**
     * Dashboard badges for these dispatches: "Near cap" is the dispatch's own usage at or past
     * NEAR_CAP_PERCENT of its cap (a lowered alert threshold does not make 31 of 100 near the
     * cap); "Expires soon" is a live expiry crossing.
     */
    async flags(viewer: Viewer, ids: string[], tx: DbOrTx = db) {
      const rows = rowsOf(
        await tx.execute(sql`
      with wanted as (
        select a.id, a.registration_count, a.registration_cap from dispatch a
        where a.id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))
          and ${visibleTo(viewer, sql`a.destination_id`)})
      select w.id as dispatch_id, 'near-cap' as kind from wanted w
      where w.registration_cap > 0
        and w.registration_count::bigint * 100 >= ${NEAR_CAP_PERCENT}::bigint * w.registration_cap
      union
      select distinct s.dispatch_id, 'expiry' from alert_state s join wanted w on w.id = s.dispatch_id
      where s.kind = 'expiry'
      order by 1`),
      )
      return {
        nearCap: rows.filter((r) => r.kind === 'near-cap').map((r) => String(r.dispatch_id)),
        expiresSoon: rows.filter((r) => r.kind === 'expiry').map((r) => String(r.dispatch_id)),
      }
    },
  }
}
export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>
