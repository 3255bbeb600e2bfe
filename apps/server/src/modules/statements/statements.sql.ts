import { sql } from 'drizzle-orm'

/** A statement's company and half-open period [start, end), both instants (UTC month or year). */
export interface StatementWindow {
  companyId: string
  start: Date
  end: Date
}

/**
 * One line per dispatch of the company that existed in the window (made before it ended, not
 * removed before it started). Each figure is one range scan of a (dispatch, date) index of migration 0037:
 * registrations created in the window (new registrations: a counter reset removes none of
 * them, so nothing goes negative), distinct learners whose registration was first launched in
 * it, and completions in it. The cap and counter at the window's end come from the licence
 * history (migration 0036): the last history row before the end, plus the registrations
 * created after it; with none before the end, the first row after it, minus the registrations
 * created in between; with no history at all, the dispatch row now, minus the registrations
 * created since the end.
 */
export const statementLinesSql = ({ companyId, start, end }: StatementWindow) => sql`
  select d.id as dispatch_id, d.course_title,
    (select count(*) from registration r
      where r.dispatch_id = d.id and r.created_date >= ${start} and r.created_date < ${end})::int as added,
    (select count(distinct r.learner_hash) from registration r
      where r.dispatch_id = d.id and r.first_access_date >= ${start} and r.first_access_date < ${end})::int as learners,
    (select count(*) from registration r
      where r.dispatch_id = d.id and r.completed_date >= ${start} and r.completed_date < ${end})::int as completions,
    (case when prev.cap_after is not null then prev.cap_after
          when nxt.cap_after is not null then coalesce(nxt.cap_before, nxt.cap_after)
          else d.registration_cap end)::int as cap_at_end,
    greatest(0, case
      when prev.cap_after is not null then prev.count_after + (select count(*) from registration r
        where r.dispatch_id = d.id and r.created_date > prev.occurred_at and r.created_date < ${end})
      when nxt.cap_after is not null then coalesce(nxt.count_before, nxt.count_after) - (select count(*)
        from registration r
        where r.dispatch_id = d.id and r.created_date >= ${end} and r.created_date <= nxt.occurred_at)
      else d.registration_count - (select count(*) from registration r
        where r.dispatch_id = d.id and r.created_date >= ${end}) end)::int as count_at_end
  from dispatch d
  left join lateral (
    select h.occurred_at, h.cap_after, h.count_after from dispatch_history h
    where h.dispatch_id = d.id and h.occurred_at < ${end}
    order by h.occurred_at desc, h.id desc limit 1
  ) prev on true
  left join lateral (
    select h.occurred_at, h.cap_before, h.cap_after, h.count_before, h.count_after from dispatch_history h
    where prev.occurred_at is null and h.dispatch_id = d.id and h.occurred_at >= ${end}
    order by h.occurred_at, h.id limit 1
  ) nxt on true
  where d.destination_id = ${companyId} and (d.removed_at is null or d.removed_at >= ${start})
    and (d.provider_created is null or d.provider_created < ${end})
  order by lower(d.course_title), d.id`

/** Distinct learners over all the company's dispatches in the window (a learner of two courses is one). */
export const statementLearnersSql = ({ companyId, start, end }: StatementWindow) => sql`
  select count(distinct r.learner_hash)::int as learners
  from dispatch d
  join registration r on r.dispatch_id = d.id and r.first_access_date >= ${start} and r.first_access_date < ${end}
  where d.destination_id = ${companyId} and (d.removed_at is null or d.removed_at >= ${start})
    and (d.provider_created is null or d.provider_created < ${end})`

/**
 * The monthly statement mail's recipients, one row per user and company: each company's
 * account manager, and the company's client users who opted in on their profile; active users
 * only, companies with at least one dispatch.
 */
export const statementRecipientsSql = () => sql`
  select u.id::text as user_id, u.email, c.id as company_id, coalesce(c.display_name, c.name) as company_name
  from company c
  join app_user u on u.id = c.account_manager_id
  where c.removed_at is null and u.status = 'active'
    and exists (select 1 from dispatch d where d.destination_id = c.id)
  union
  select u.id::text, u.email, c.id, coalesce(c.display_name, c.name)
  from user_preference p
  join app_user u on u.id = p.user_id
  join company c on c.id = u.company_id
  where p.statement_mails and u.status = 'active' and u.role = 'client' and c.removed_at is null
    and exists (select 1 from dispatch d where d.destination_id = c.id)
  order by 1, 3`
