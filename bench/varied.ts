/**
 * The varied mix: what many users do at once, not one URL asked again and again. Each
 * read row gets a list of requests made ahead of time from a seeded generator (so two runs send
 * the same requests), drawn from the data itself: search terms are words of real course titles
 * and company names, learner names and e-mail fragments, log actors, IPs and dispatch ids; pages
 * are drawn from each filter's real page count (asked of the API first); several users of each
 * role take turns. The distributions are written below with their reasons.
 */
import { LEARNER_SORTS } from '@portal/shared'
import type { ApiSession } from './api-session'
import { getJson } from './api-session'
import { day, type Vocabulary } from './varied-vocabulary'

export { loadVocabulary, type Vocabulary } from './varied-vocabulary'

export interface VariedRequest {
  path: string
  token: string
  /** Which signed-in user sent it (for the plans of the slowest requests). */
  user: string
}

/** mulberry32: small, fast and seeded. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Rng = () => number
const pick = <T>(r: Rng, items: readonly T[]): T => items[Math.floor(r() * items.length)]!
/** Picks by weight: [[value, weight], ...]. */
function weighted<T>(r: Rng, choices: readonly (readonly [T, number])[]): T {
  const total = choices.reduce((sum, [, w]) => sum + w, 0)
  let at = r() * total
  for (const [value, w] of choices) {
    at -= w
    if (at <= 0) return value
  }
  return choices[choices.length - 1]![0]
}
const qs = (query: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(query)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k, v]) => [k, String(v)]),
  ).toString()

/** Words a user would type, taken from the data. */
/** A fragment a person would type: a whole word, or its first few letters. */
function fragment(r: Rng, text: string): string {
  const mode = r()
  if (mode < 0.6) return text
  if (mode < 0.9) return text.slice(0, Math.max(3, Math.ceil(text.length * (0.4 + r() * 0.4))))
  return text.slice(0, 2)
}

/**
 * Pages: the first in 40 %, the next few in 25 %, the last in 15 %, anywhere in 20 % (deep pages
 * as often as real use reaches them: people jump to the end or type a page number). Drawn before
 * the filter's page count is known (`u` are three draws), so the requests depend on the seed only.
 */
function pageOf(u: readonly [number, number, number], totalPages: number): number {
  if (totalPages <= 1) return 1
  const [which, a, b] = u
  if (which < 0.4) return 1
  if (which < 0.65) return Math.min(totalPages, 2 + Math.floor(a * 4))
  if (which < 0.8) return totalPages
  return 1 + Math.floor(b * totalPages)
}
const draws = (r: Rng) => [r(), r(), r()] as const

export type Probe = (path: string, token: string) => Promise<number>

/**
 * The total of a filter, asked of the API once per distinct filter, a few at a time (the
 * generators draw everything first and ask for the page counts together).
 */
export function totalsProbe(baseUrl: string, field: (body: unknown) => number, parallel = 6): Probe {
  const seen = new Map<string, Promise<number>>()
  let running = 0
  const waiting: (() => void)[] = []
  const slot = async () => {
    if (running >= parallel) await new Promise<void>((resolve) => waiting.push(resolve))
    running += 1
  }
  const release = () => {
    running -= 1
    waiting.shift()?.()
  }
  return (path, token) => {
    let found = seen.get(path)
    if (!found) {
      found = slot()
        .then(() => getJson<unknown>(baseUrl, path, token))
        .then((res) => (res.status === 200 ? field(res.body) : 0))
        .finally(release)
      seen.set(path, found)
    }
    return found
  }
}

/** Draft requests (everything drawn) whose page waits for its filter's total. */
async function finish(
  drafts: {
    user: ApiSession
    probePath: string
    u: readonly [number, number, number]
    path(page: number): string
    pageSize: number
  }[],
  probe: Probe,
): Promise<VariedRequest[]> {
  const totals = await Promise.all(drafts.map((d) => probe(d.probePath, d.user.accessToken)))
  return drafts.map((d, i) => ({
    path: d.path(pageOf(d.u, Math.ceil(totals[i]! / d.pageSize))),
    token: d.user.accessToken,
    user: String(d.user.user.email),
  }))
}

/**
 * Dispatch list: status all 70 % (the default), enabled 20 %, disabled 10 %; a search in 40 % of
 * requests (a course title word 35 %, a company word or name 30 %, a title's start 15 %, two
 * letters 10 %, part of a dispatch id 10 %); the default sort half of the time; 50 a page
 * (the default) 60 %, the other sizes 10 % each.
 */
export async function dispatchListRequests(
  r: Rng,
  vocab: Vocabulary,
  users: ApiSession[],
  count: number,
  probe: Probe,
): Promise<VariedRequest[]> {
  const drafts: Parameters<typeof finish>[0] = []
  for (let i = 0; i < count; i += 1) {
    const user = users[i % users.length]!
    const status = weighted(r, [
      ['all', 70],
      ['enabled', 20],
      ['disabled', 10],
    ] as const)
    const search =
      r() < 0.4
        ? weighted<() => string>(r, [
            [() => pick(r, vocab.courseWords), 35],
            [() => (r() < 0.5 ? pick(r, vocab.companyWords) : pick(r, vocab.companyNames)), 30],
            [() => fragment(r, pick(r, vocab.courseTitles)), 15],
            [() => pick(r, vocab.courseWords).slice(0, 2), 10],
            [() => pick(r, vocab.dispatchIds).slice(0, 4 + Math.floor(r() * 8)), 10],
          ])()
        : undefined
    const [sort, order] =
      r() < 0.5
        ? (['client', 'asc'] as const)
        : pick(r, [
            ['client', 'desc'],
            ['course', 'asc'],
            ['course', 'desc'],
            ['status', 'asc'],
            ['status', 'desc'],
            ['registrations', 'asc'],
            ['registrations', 'desc'],
          ] as const)
    const pageSize = weighted(r, [
      [50, 60],
      [10, 10],
      [25, 10],
      [100, 10],
      [200, 10],
    ])
    const filter = { status, search }
    drafts.push({
      user,
      probePath: `/api/dispatches?${qs({ ...filter, pageSize: 10 })}`,
      u: draws(r),
      pageSize,
      path: (page) => `/api/dispatches?${qs({ page, pageSize, ...filter, sort, order })}`,
    })
  }
  return finish(drafts, probe)
}

/** A learner search: a first name, a last name, an e-mail's start, or two letters. */
const learnerSearch = (r: Rng, vocab: Vocabulary) =>
  weighted<() => string>(r, [
    [() => pick(r, vocab.learnerFirstNames), 30],
    [() => pick(r, vocab.learnerLastNames), 30],
    [() => pick(r, vocab.learnerEmails).slice(0, 6 + Math.floor(r() * 10)), 25],
    [() => pick(r, vocab.learnerLastNames).slice(0, 2), 15],
  ])()

/**
 * Completion report of one dispatch: no status half of the time, else one of the three; a
 * last-access window in 50 % (7 to 120 days within the data); a learner search in 35 % (a first
 * name, a last name, an e-mail's start, or two letters), so about one request in six searches
 * within a window; 100 a page (the default) 70 %.
 */
export async function reportRequests(
  r: Rng,
  vocab: Vocabulary,
  dispatchId: string,
  users: ApiSession[],
  count: number,
  probe: Probe,
): Promise<VariedRequest[]> {
  const start = new Date(`${vocab.reportRange.start}T00:00:00Z`).getTime()
  const end = new Date(`${vocab.reportRange.end}T00:00:00Z`).getTime()
  const drafts: Parameters<typeof finish>[0] = []
  for (let i = 0; i < count; i += 1) {
    const user = users[i % users.length]!
    const status = weighted(r, [
      ['', 50],
      ['completed', 17],
      ['incomplete', 17],
      ['not attempted', 16],
    ])
    let startDate: string | undefined
    let endDate: string | undefined
    if (r() < 0.5) {
      const days = 7 + Math.floor(r() * 114)
      const from = start + r() * Math.max(0, end - start - days * 86_400_000)
      startDate = day(new Date(from))
      endDate = day(new Date(from + days * 86_400_000))
    }
    const search = r() < 0.35 ? learnerSearch(r, vocab) : undefined
    const pageSize = weighted(r, [
      [100, 70],
      [10, 10],
      [25, 10],
      [50, 10],
    ])
    const filter = { status, startDate, endDate, search }
    const base = `/api/reports/dispatch/${encodeURIComponent(dispatchId)}`
    drafts.push({
      user,
      probePath: `${base}?${qs({ ...filter, pageSize: 10 })}`,
      u: draws(r),
      pageSize,
      path: (page) => `${base}?${qs({ page, pageSize, ...filter })}`,
    })
  }
  return finish(drafts, probe)
}

/**
 * Activity logs (admins): a date window in 60 % (the last 7, 30 or 90 days, or any month), a user
 * in 35 %, an action in 30 % (weighted to the frequent ones), a search in 40 % (actor names,
 * e-mails, IPs, words of the details; two letters in one search of ten); 50 a page. One request
 * in five is a search for a user within a date window, as someone tracing what a person did
 * asks it.
 */
export async function logsRequests(
  r: Rng,
  vocab: Vocabulary,
  actions: readonly string[],
  users: ApiSession[],
  count: number,
  probe: Probe,
): Promise<VariedRequest[]> {
  const last = new Date(`${vocab.logRange.end}T00:00:00Z`).getTime()
  const first = new Date(`${vocab.logRange.start}T00:00:00Z`).getTime()
  const drafts: Parameters<typeof finish>[0] = []
  for (let i = 0; i < count; i += 1) {
    const user = users[i % users.length]!
    const traced = r() < 0.2
    let startDate: string | undefined
    let endDate: string | undefined
    if (traced || r() < 0.5) {
      const span = pick(r, [7, 30, 90, 30])
      const to = r() < 0.6 ? last : first + r() * (last - first)
      startDate = day(new Date(to - (span - 1) * 86_400_000))
      endDate = day(new Date(to))
    }
    const userId = traced || r() < 0.19 ? pick(r, vocab.logUserIds) : undefined
    // Actions are listed most frequent first: favour the front, as people filter on common ones.
    const action = r() < 0.3 ? actions[Math.floor(Math.pow(r(), 2) * actions.length)] : undefined
    const searchTerm =
      traced || r() < 0.25 ? (r() < 0.1 ? pick(r, vocab.logTerms).slice(0, 2) : pick(r, vocab.logTerms)) : undefined
    const filter = { startDate, endDate, userId, action, searchTerm }
    drafts.push({
      user,
      probePath: `/api/logs?${qs({ ...filter, limit: 50 })}`,
      u: draws(r),
      pageSize: 50,
      path: (page) => `/api/logs?${qs({ page, limit: 50, ...filter })}`,
    })
  }
  return finish(drafts, probe)
}

/**
 * the learner view of the big dispatch's company (100,000 registrations): staff name
 * the company, clients are of it. Any of the nine sorts either way (name ascending, the default,
 * a third of the time); a search in 25 % (a first name, a last name, an e-mail's start, two
 * letters); a status in 20 %; a course in 15 %; 50 a page (the row) 80 %, 25 and 100
 * 10 % each.
 */
export async function learnerRequests(
  r: Rng,
  vocab: Vocabulary,
  companyId: string,
  users: ApiSession[],
  count: number,
  probe: Probe,
): Promise<VariedRequest[]> {
  const drafts: Parameters<typeof finish>[0] = []
  for (let i = 0; i < count; i += 1) {
    const user = users[i % users.length]!
    const [sort, order] =
      r() < 0.33 ? (['name', 'asc'] as const) : [pick(r, LEARNER_SORTS), pick(r, ['asc', 'desc'] as const)]
    const search = r() < 0.25 ? learnerSearch(r, vocab) : undefined
    const status = r() < 0.2 ? pick(r, ['completed', 'incomplete', 'not attempted'] as const) : undefined
    const courseId = r() < 0.15 && vocab.companyCourseIds.length > 0 ? pick(r, vocab.companyCourseIds) : undefined
    const pageSize = weighted(r, [
      [50, 80],
      [25, 10],
      [100, 10],
    ])
    const filter = { companyId: user.user.role === 'client' ? undefined : companyId, search, status, courseId }
    drafts.push({
      user,
      probePath: `/api/learners?${qs({ ...filter, pageSize: 25 })}`,
      u: draws(r),
      pageSize,
      path: (page) => `/api/learners?${qs({ page, pageSize, ...filter, sort, order })}`,
    })
  }
  return finish(drafts, probe)
}
