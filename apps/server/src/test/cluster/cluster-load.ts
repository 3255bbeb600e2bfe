import type { Simulator } from '@portal/scorm-cloud-sim'
import type { RegistrationSchema } from '../../modules/scorm-cloud/scorm-cloud.types'
import type { Node } from './cluster-infra'

/**
 * The cluster test's mixed load through the balancer: sessions (sign-ins and refreshes), list and
 * report reads, dispatch edits (each also read back at once through another node), course
 * requests, and postbacks of the simulator's registration changes. It records every answer
 * with its time, and what each write left acknowledged, for the checks afterwards.
 */
export interface Answer {
  at: number
  status: number
  what: string
}

export interface LoadRecord {
  answers: Answer[]
  /** Sessions made: their latest tokens after every refresh. */
  sessions: Array<{ accessToken: string; refreshToken: string }>
  /**
   * Refreshes whose answer was lost with a killed node and which were refused when sent again:
   * the node had spent the token, and a spent token presented again ends its session
   * (docs/decisions.md, "A reused refresh token"). The user then signs in again.
   */
  refreshesLost: number
  /** The notes each edited dispatch was last acknowledged with. */
  notes: Map<string, string>
  /** Course requests answered 201 (their notes marker), and ones whose answer was lost. */
  requestsCreated: Set<string>
  requestsInDoubt: Set<string>
  /** The last registration sent by postback, per registration id, once answered 200. */
  postbacks: Map<string, RegistrationSchema>
  /** A write through one node read back at once through another: how often, and how often unseen. */
  crossReads: { checked: number; stale: string[] }
}

export interface LoadContext {
  balancer: string
  nodes: Node[]
  sim: Simulator
  admin: { email: string; password: string }
  client: { email: string; password: string }
  dispatchIds: string[]
  courseIds: string[]
  registrationIds: string[]
  postbackAuth: string
  until: number
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export function createRecord(): LoadRecord {
  return {
    answers: [],
    sessions: [],
    refreshesLost: 0,
    notes: new Map(),
    requestsCreated: new Set(),
    requestsInDoubt: new Set(),
    postbacks: new Map(),
    crossReads: { checked: 0, stale: [] },
  }
}

/** One HTTP call; a refused or reset connection answers status 0. Balancer answers are recorded. */
export async function call<T = Record<string, unknown>>(
  record: LoadRecord | null,
  base: string,
  method: string,
  url: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: T }> {
  let status = 0
  let body = null as T
  try {
    const res = await fetch(base + url, {
      method,
      headers: {
        ...(options.token ? { 'x-auth-token': options.token } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(30_000),
    })
    status = res.status
    const text = await res.text()
    body = (text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T
  } catch {
    status = 0
  }
  record?.answers.push({ at: Date.now(), status, what: `${method} ${url.replace(/[?].*$/, '')}` })
  return { status, body }
}

const unclear = (status: number) => status === 0 || status >= 500

/** Retries while the answer is unclear (a node died under the request), as a client or SCORM Cloud would. */
async function untilClear<T>(send: () => Promise<{ status: number; body: T }>, deadlineMs = 30_000) {
  const end = Date.now() + deadlineMs
  let answer = await send()
  while (unclear(answer.status) && Date.now() < end) {
    await pause(250)
    answer = await send()
  }
  return answer
}

export async function signIn(record: LoadRecord | null, base: string, who: { email: string; password: string }) {
  const res = await untilClear(() =>
    call<{ accessToken: string; refreshToken: string }>(record, base, 'POST', '/api/auth/login', { body: who }),
  )
  if (res.status !== 200) throw new Error(`sign-in of ${who.email} failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}

const pick = <T>(list: T[], n: number) => list[n % list.length]!

/** Sign-ins and refreshes: new sessions now and then, each refreshed in turn, by one user at a time. */
async function sessions(ctx: LoadContext, record: LoadRecord) {
  for (let n = 0; Date.now() < ctx.until; n++) {
    if (n % 3 === 0) record.sessions.push(await signIn(record, ctx.balancer, ctx.admin))
    const session = pick(record.sessions, n)
    let lost = false
    const res = await untilClear(async () => {
      const answer = await call<{ accessToken: string; refreshToken: string }>(
        record,
        ctx.balancer,
        'POST',
        '/api/auth/refresh-token',
        { body: { refreshToken: session.refreshToken } },
      )
      lost ||= unclear(answer.status)
      return answer
    })
    if (res.status === 401 && lost) {
      // That session has ended: it is no longer one every node must accept.
      record.refreshesLost++
      record.sessions[record.sessions.indexOf(session)] = await signIn(record, ctx.balancer, ctx.admin)
      continue
    }
    if (res.status !== 200) throw new Error(`refresh failed: ${res.status} ${JSON.stringify(res.body)}`)
    Object.assign(session, res.body)
    await pause(300)
  }
}

/** List and report reads. */
async function reads(ctx: LoadContext, record: LoadRecord, token: () => string, seed: number) {
  const paths = [
    (n: number) => `/api/dispatches?page=${(n % 2) + 1}&pageSize=10`,
    (n: number) => `/api/reports/dispatch/${encodeURIComponent(pick(ctx.dispatchIds, n))}`,
    () => '/api/reports/registrations/count',
    () => '/api/notifications',
    (n: number) => `/api/dispatches/${encodeURIComponent(pick(ctx.dispatchIds, n))}`,
  ]
  for (let n = seed; Date.now() < ctx.until; n++) {
    const res = await call(record, ctx.balancer, 'GET', pick(paths, n)(n), { token: token() })
    // A client may not see every dispatch (403/404); a session refused (401) or a bad request is a failure.
    if ([400, 401, 422].includes(res.status)) throw new Error(`read refused: ${res.status} ${JSON.stringify(res.body)}`)
  }
}

/**
 * Dispatch edits through the balancer (retried while unclear, so the last acknowledged value is
 * known), and now and then a write through one node read back at once through another.
 */
async function edits(ctx: LoadContext, record: LoadRecord, token: () => string) {
  for (let n = 0; Date.now() < ctx.until; n++) {
    const id = pick(ctx.dispatchIds, n)
    const notes = `cluster edit ${n}`
    const alive = ctx.nodes.filter((node) => node.role !== 'worker' && node.alive())
    const direct = n % 4 === 0 && alive.length >= 2
    const writer = direct ? pick(alive, n).url : ctx.balancer
    const res = await untilClear(() =>
      call(direct ? null : record, writer, 'PUT', `/api/dispatches/${encodeURIComponent(id)}`, {
        token: token(),
        body: { notes },
      }),
    )
    if (res.status === 200) record.notes.set(id, notes)
    else if (!(direct && unclear(res.status))) throw new Error(`edit failed: ${res.status} ${JSON.stringify(res.body)}`)
    if (direct && res.status === 200) {
      const reader = pick(alive, n + 1)
      const seen = await call<{ notes?: string }>(
        null,
        reader.url,
        'GET',
        `/api/dispatches/${encodeURIComponent(id)}`,
        {
          token: token(),
        },
      )
      if (seen.status === 200) {
        record.crossReads.checked++
        if (seen.body.notes !== notes)
          record.crossReads.stale.push(`${id}: wrote "${notes}", read "${seen.body.notes}"`)
      }
    }
    await pause(100)
  }
}

/** Course requests by a client user; an answer lost with its node leaves the request in doubt. */
async function courseRequests(ctx: LoadContext, record: LoadRecord, token: () => string) {
  for (let n = 0; Date.now() < ctx.until; n++) {
    const marker = `cluster request ${n}`
    const res = await call(record, ctx.balancer, 'POST', '/api/course-requests', {
      token: token(),
      body: { courseId: pick(ctx.courseIds, n), licenses: 1, notes: marker },
    })
    if (res.status === 201) record.requestsCreated.add(marker)
    else if (unclear(res.status)) record.requestsInDoubt.add(marker)
    else if (res.status !== 409) throw new Error(`course request failed: ${res.status} ${JSON.stringify(res.body)}`)
    await pause(400)
  }
}

/** Postbacks of registration changes made in the simulator, resent until answered 200. */
async function postbacks(ctx: LoadContext, record: LoadRecord) {
  for (let n = 0; Date.now() < ctx.until; n++) {
    const batch = Array.from({ length: 5 }, (_, i) => ctx.sim.advanceRegistration(pick(ctx.registrationIds, n * 5 + i)))
    await Promise.all(
      batch.map(async (registration) => {
        const res = await untilClear(() =>
          call(record, ctx.balancer, 'POST', '/api/webhooks/scorm-cloud/registrations', {
            body: registration,
            headers: { authorization: ctx.postbackAuth },
          }),
        )
        if (res.status !== 200) throw new Error(`postback failed: ${res.status} ${JSON.stringify(res.body)}`)
        record.postbacks.set(registration.id, registration)
      }),
    )
    await pause(250)
  }
}

/** Runs the whole mix until `ctx.until`; the first failure of any part ends the run with it. */
export async function runLoad(ctx: LoadContext, record: LoadRecord) {
  const admin = await signIn(record, ctx.balancer, ctx.admin)
  const client = await signIn(record, ctx.balancer, ctx.client)
  // Access tokens last 15 minutes, longer than the run: one token per user does.
  const adminToken = () => admin.accessToken
  await Promise.all([
    sessions(ctx, record),
    reads(ctx, record, adminToken, 0),
    reads(ctx, record, () => client.accessToken, 2),
    edits(ctx, record, adminToken),
    courseRequests(ctx, record, () => client.accessToken),
    postbacks(ctx, record),
  ])
}
