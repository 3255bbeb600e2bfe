import type pg from 'pg'
import type { Simulator } from '@portal/scorm-cloud-sim'
import type { Node, SmtpReceiver } from './cluster-infra'
import { eventually } from './cluster-infra'
import { call, type LoadRecord } from './cluster-load'

/**
 * What must hold after the cluster test's load: nothing lost, nothing done twice, every session
 * good on every node, and failed answers only while the balancer had not yet noticed the killed
 * node. Prints one line per check with its counts; false when any failed.
 */
export interface CheckInput {
  db: pg.Client
  nodes: Node[]
  balancer: string
  smtp: SmtpReceiver
  record: LoadRecord
  timeline: { kill: number; down: number; restarted: number; up: number }
  sim: Simulator
  log: (line: string) => void
}

/** After HAProxy marks a node down it may still be finishing an answer it had begun. */
const WINDOW_SLACK_MS = 1_000

export async function checkCluster({ db, nodes, smtp, record, timeline, log }: CheckInput): Promise<boolean> {
  let ok = true
  const check = (passed: boolean, line: string) => {
    log(`${passed ? 'ok  ' : 'FAIL'} ${line}`)
    if (!passed) ok = false
  }
  const rows = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
    (await db.query<T>(text, values)).rows
  const serving = nodes.filter((n) => n.role !== 'worker')

  // Failed answers (5xx, or no answer) through the balancer, inside and outside its window.
  const failedAnswers = record.answers.filter((a) => a.status === 0 || a.status >= 500)
  const inWindow = (at: number) => at >= timeline.kill && at <= timeline.down + WINDOW_SLACK_MS
  const outside = failedAnswers.filter((a) => !inWindow(a.at))
  const byStatus = (list: typeof failedAnswers) =>
    Object.entries(
      list.reduce<Record<string, number>>((acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }), {}),
    )
      .map(([status, n]) => `${n}x${status}`)
      .join(' ') || 'none'
  check(
    outside.length === 0,
    `answers through the balancer: ${record.answers.length}; 5xx or no answer inside the health-check window ` +
      `(${timeline.down - timeline.kill + WINDOW_SLACK_MS} ms): ${failedAnswers.length - outside.length} ` +
      `(${byStatus(failedAnswers.filter((a) => inWindow(a.at)))}), outside it: ${outside.length}` +
      (outside.length ? ` ${JSON.stringify(outside.slice(0, 5))}` : ''),
  )

  // Every session made through the balancer is good on every node.
  let sessionChecks = 0
  const badSessions: string[] = []
  for (const [i, session] of record.sessions.entries()) {
    for (const node of serving) {
      const me = await call(null, node.url, 'GET', '/api/auth/me', { token: session.accessToken })
      sessionChecks++
      if (me.status !== 200) badSessions.push(`session ${i} on ${node.name}: ${me.status}`)
    }
  }
  // One refresh at a time is in flight (cluster-load.ts, sessions), so one node's death can lose
  // the answer of one refresh at most.
  check(
    badSessions.length === 0 && record.sessions.length > 0 && record.refreshesLost <= 1,
    `sessions: ${record.sessions.length}, each checked on ${serving.length} nodes (${sessionChecks} checks), refused: ${badSessions.length} ${badSessions.slice(0, 3).join('; ')}; refreshes lost with the killed node, then signed in again: ${record.refreshesLost}`,
  )

  // No dispatch edit lost: each node reads the last acknowledged notes.
  const admin = record.sessions[0]!.accessToken
  const lost: string[] = []
  for (const [id, notes] of record.notes) {
    for (const node of serving) {
      const res = await call<{ notes?: string }>(null, node.url, 'GET', `/api/dispatches/${encodeURIComponent(id)}`, {
        token: admin,
      })
      if (res.body.notes !== notes) lost.push(`${id} on ${node.name}: "${String(res.body.notes)}", want "${notes}"`)
    }
  }
  check(
    lost.length === 0,
    `dispatch edits: ${record.notes.size} dispatches' last edits read on every node, lost: ${lost.length} ${lost.slice(0, 3).join('; ')}`,
  )
  check(
    record.crossReads.stale.length === 0 && record.crossReads.checked > 0,
    `a write through one node read at once through another: ${record.crossReads.checked} times, not seen: ${record.crossReads.stale.length} ${record.crossReads.stale.slice(0, 3).join('; ')}`,
  )

  // Postbacks: the newest copy of every registration is stored.
  const stored = await rows<{ id: string; updated: string }>(
    `select id, to_char(provider_updated at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated
     from registration where id = any($1)`,
    [[...record.postbacks.keys()]],
  )
  const storedBy = new Map(stored.map((r) => [r.id, r.updated]))
  const stale = [...record.postbacks].filter(([id, reg]) => storedBy.get(id) !== reg.updated)
  check(
    stale.length === 0,
    `postbacks: ${record.postbacks.size} registrations, newest copy stored for all but ${stale.length}`,
  )

  // Course requests: each acknowledged one stored once, none twice.
  const requests = await rows<{ notes: string; n: number }>(
    `select notes, count(*)::int as n from course_request where notes like 'cluster request %' group by notes`,
  )
  const requestCount = new Map(requests.map((r) => [r.notes, r.n]))
  const missing = [...record.requestsCreated].filter((m) => requestCount.get(m) !== 1)
  const twice = requests.filter((r) => r.n > 1)
  const unknown = requests.filter((r) => !record.requestsCreated.has(r.notes) && !record.requestsInDoubt.has(r.notes))
  check(
    missing.length === 0 && twice.length === 0 && unknown.length === 0,
    `course requests: ${record.requestsCreated.size} created, ${record.requestsInDoubt.size} answers lost with the node ` +
      `(${record.requestsInDoubt.size === 0 ? 'none' : [...record.requestsInDoubt].filter((m) => requestCount.has(m)).length + ' of them stored'}); ` +
      `missing: ${missing.length}, stored twice: ${twice.length}, unexpected: ${unknown.length}`,
  )

  // Alerts: raised once per dispatch, kind and level; their mails all handed over, none twice.
  const alerts = await rows<{ n: number; keys: number }>(
    `select count(*)::int as n, count(distinct (dispatch_id, kind, level))::int as keys from alert`,
  )
  await eventually(
    async () => (await rows(`select 1 from mail_outbox where status = 'pending' limit 1`)).length === 0,
    45_000,
    500,
  )
  const outbox = await rows<{ key: string; status: string }>(
    `select idempotency_key as key, status from mail_outbox where kind = 'alert' order by id`,
  )
  const messageId = (key: string) => key.replace(/[^\w.-]/g, '.')
  const received = new Map<string, number>()
  for (const mail of smtp.received) {
    const id = /^<([^@>]+)@/.exec(mail.messageId)?.[1] ?? mail.messageId
    received.set(id, (received.get(id) ?? 0) + 1)
  }
  const sent = outbox.filter((m) => m.status === 'sent')
  const sentOnce = sent.filter((m) => received.get(messageId(m.key)) === 1).length
  const duplicates = [...received.values()].filter((n) => n > 1).length
  const inFlight = outbox.filter((m) => m.status !== 'sent').map((m) => m.status)
  check(
    alerts[0]!.n > 0 && alerts[0]!.n === alerts[0]!.keys,
    `alerts: ${alerts[0]!.n} raised, ${alerts[0]!.n - alerts[0]!.keys} raised twice`,
  )
  check(
    sent.length > 0 && sentOnce === sent.length && duplicates === 0 && received.size === sent.length,
    `alert mails: ${outbox.length} queued, ${sent.length} sent, ${smtp.received.length} received by the SMTP receiver, ` +
      `received twice: ${duplicates}, not yet sent: ${inFlight.length} ${inFlight.join(' ')}`,
  )

  // Syncs: never two runs of one kind at once across the nodes.
  const overlapping = await rows<{ a: string; b: string; kind: string }>(
    `select a.id::text as a, b.id::text as b, a.kind from sync_run a join sync_run b
       on a.kind = b.kind and a.id < b.id
      and tstzrange(a.started_at, coalesce(a.finished_at, now())) && tstzrange(b.started_at, coalesce(b.finished_at, now()))`,
  )
  const runs = await rows<{ kind: string; status: string; n: number }>(
    `select kind, status, count(*)::int as n from sync_run group by 1, 2 order by 1, 2`,
  )
  check(
    overlapping.length === 0,
    `sync runs: ${runs.map((r) => `${r.kind} ${r.status} ${r.n}`).join(', ')}; overlapping runs of one kind: ${overlapping.length}`,
  )

  // Jobs (pg-boss): none failed; how many were retried, and how long each queue's jobs waited to start.
  if ((await rows<{ t: string | null }>(`select to_regclass('pgboss.job')::text as t`))[0]!.t) {
    const jobs = await rows<{ name: string; state: string; n: number; retried: number; p50: number; max: number }>(
      `select name, state::text as state, count(*)::int as n, count(*) filter (where retry_count > 0)::int as retried,
              coalesce(percentile_cont(0.5) within group (order by extract(epoch from started_on - created_on) * 1000), 0)::int as p50,
              coalesce(max(extract(epoch from started_on - created_on) * 1000), 0)::int as max
         from pgboss.job group by 1, 2 order by 1, 2`,
    )
    const failedJobs = jobs.filter((j) => j.state === 'failed')
    check(
      failedJobs.length === 0,
      `jobs: ${jobs.map((j) => `${j.name} ${j.state} ${j.n}${j.retried ? ` (${j.retried} retried)` : ''}`).join(', ')}`,
    )
    log(
      `     job latency from enqueue to start, p50/max ms: ${jobs
        .filter((j) => j.state === 'completed')
        .map((j) => `${j.name} ${j.p50}/${j.max}`)
        .join(', ')}`,
    )
  }
  return ok
}
