import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import ExcelJS from 'exceljs'
import type { Statement } from '@portal/shared'
import { dispatchHistory } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { insertDispatches, insertRegistrations, type RegistrationInput } from '../dispatches/dispatches.test-data'

let t: TestContext
let admin: Record<string, string>

const COMPANY = 'stmt-co'
const YEAR = 2025
const DAY = 86_400_000
const utc = (m: number, d: number, h = 12) => new Date(Date.UTC(YEAR, m, d, h))
const monthLabel = (m: number) => `${YEAR}-${String(m + 1).padStart(2, '0')}`

/** A small seeded generator: the data are the same on every run. */
function rng(seed: number) {
  let s = seed
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648
    return s / 2_147_483_648
  }
}

interface Plan {
  id: string
  /** Cap at the start of the year (0 = unlimited) and its changes. */
  cap: number
  capChanges: { at: Date; to: number }[]
  resets: Date[]
  registrations: { id: string; created: Date; firstAccess: Date | null; completed: Date | null; learner: string }[]
}

/** Generated: registrations all year on three dispatches, resets and cap changes on two. */
function generate(): Plan[] {
  const random = rng(7)
  const plans: Plan[] = [
    { id: 'stmt-a', cap: 60, capChanges: [{ at: utc(8, 1), to: 90 }], resets: [utc(5, 15)], registrations: [] },
    { id: 'stmt-b', cap: 0, capChanges: [], resets: [], registrations: [] },
    {
      id: 'stmt-c',
      cap: 20,
      capChanges: [
        { at: utc(2, 10), to: 30 },
        { at: utc(10, 20), to: 0 },
      ],
      resets: [utc(3, 1), utc(9, 5)],
      registrations: [],
    },
  ]
  let n = 0
  for (const plan of plans) {
    for (let m = 0; m < 12; m += 1) {
      const count = 1 + Math.floor(random() * 6)
      for (let i = 0; i < count; i += 1) {
        const created = new Date(utc(m, 1, 0).getTime() + Math.floor(random() * 27 * DAY) + 3_600_000)
        const launched = random() < 0.8
        // Launches and completions may fall in the next month (a December one in the next year).
        const firstAccess = launched ? new Date(created.getTime() + Math.floor(random() * 6) * DAY) : null
        const completed = firstAccess && random() < 0.5 ? new Date(firstAccess.getTime() + 2 * DAY) : null
        n += 1
        plan.registrations.push({
          id: `stmt-r${n}`,
          created,
          firstAccess,
          completed,
          learner: `learner${Math.floor(random() * 15)}@example.com`,
        })
      }
    }
  }
  return plans
}

/** The counter and cap of a plan at an instant, replayed event by event. */
function stateAt(plan: Plan, at: Date) {
  const events = [
    ...plan.registrations.map((r) => ({ at: r.created, apply: (s: { count: number; cap: number }) => s.count++ })),
    ...plan.resets.map((r) => ({ at: r, apply: (s: { count: number; cap: number }) => (s.count = 0) })),
    ...plan.capChanges.map((c) => ({ at: c.at, apply: (s: { count: number; cap: number }) => (s.cap = c.to) })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime())
  const state = { count: 0, cap: plan.cap }
  for (const e of events) if (e.at < at) e.apply(state)
  return state
}

const plans = generate()
const yearEnd = new Date(Date.UTC(YEAR + 1, 0, 1))

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  await t.createCompany(COMPANY, 'Statement Co')
  for (const plan of plans) {
    const now = stateAt(plan, new Date())
    await insertDispatches(t.database.db, [
      {
        id: plan.id,
        destinationId: COMPANY,
        courseTitle: `Course ${plan.id}`,
        registrationCount: now.count,
        registrationCap: now.cap,
        providerCreated: new Date(Date.UTC(YEAR - 1, 5, 1)),
      },
    ])
    // The history the portal would have recorded at each reset and cap change.
    const rows = [
      ...plan.resets.map((at) => ({ at, kind: 'count_reset' as const })),
      ...plan.capChanges.map((c) => ({ at: c.at, kind: 'cap' as const })),
    ]
    for (const row of rows) {
      const before = stateAt(plan, row.at)
      const after = stateAt(plan, new Date(row.at.getTime() + 1))
      await t.database.db.insert(dispatchHistory).values({
        dispatchId: plan.id,
        companyId: COMPANY,
        occurredAt: row.at,
        kind: row.kind,
        oldValue: String(row.kind === 'cap' ? before.cap : before.count),
        newValue: String(row.kind === 'cap' ? after.cap : after.count),
        countBefore: before.count,
        countAfter: after.count,
        capBefore: before.cap,
        capAfter: after.cap,
        actorKind: 'user',
        actorLabel: 'Generated',
      })
    }
    const registrations: RegistrationInput[] = plan.registrations.map((r) => ({
      id: r.id,
      dispatchId: plan.id,
      learnerEmail: r.learner,
      createdDate: r.created,
      firstAccessDate: r.firstAccess,
      lastAccessDate: r.firstAccess,
      completedDate: r.completed,
      completionStatus: r.completed ? 'completed' : r.firstAccess ? 'incomplete' : 'not attempted',
    }))
    await insertRegistrations(t.database.db, registrations)
  }
  // Another company's registrations never count.
  await insertDispatches(t.database.db, [{ id: 'stmt-other', destinationId: 'stmt-other-co' }])
  await insertRegistrations(t.database.db, [
    { id: 'stmt-other-r', dispatchId: 'stmt-other', createdDate: utc(3, 3), firstAccessDate: utc(3, 3) },
  ])
})
afterAll(async () => {
  await t.close()
})

const read = async (query: string, headers = admin, company = COMPANY) =>
  t.app.inject({ method: 'GET', url: `/api/statements/${company}?${query}`, headers })
const statementOf = async (query: string) => {
  const res = await read(query)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as Statement
}
const inWindow = (d: Date | null, start: Date, end: Date) => d !== null && d >= start && d < end

describe('usage statements on generated data', () => {
  it('gives each month the registrations added, learners, completions and licences left at its end', async () => {
    for (let m = 0; m < 12; m += 1) {
      const start = utc(m, 1, 0)
      const end = new Date(Date.UTC(YEAR, m + 1, 1))
      const statement = await statementOf(`month=${monthLabel(m)}`)
      expect(statement.lines.map((l) => l.dispatchId)).toEqual(['stmt-a', 'stmt-b', 'stmt-c'])
      for (const plan of plans) {
        const line = statement.lines.find((l) => l.dispatchId === plan.id)!
        const state = stateAt(plan, end)
        const regs = plan.registrations
        expect(line, `${plan.id} ${monthLabel(m)}`).toEqual({
          dispatchId: plan.id,
          courseTitle: `Course ${plan.id}`,
          registrationsAdded: regs.filter((r) => inWindow(r.created, start, end)).length,
          learnersLaunched: new Set(regs.filter((r) => inWindow(r.firstAccess, start, end)).map((r) => r.learner)).size,
          completions: regs.filter((r) => inWindow(r.completed, start, end)).length,
          capAtEnd: state.cap > 0 ? state.cap : null,
          countAtEnd: state.count,
          remainingAtEnd: state.cap > 0 ? Math.max(0, state.cap - state.count) : null,
        })
      }
    }
  })

  it("reconciles: the months of a year sum to the year's statement, per dispatch and in total", async () => {
    const months = await Promise.all(Array.from({ length: 12 }, (_, m) => statementOf(`month=${monthLabel(m)}`)))
    const year = await statementOf(`year=${YEAR}`)
    const sum = (pick: (s: Statement) => number) => months.reduce((n, s) => n + pick(s), 0)
    expect(year.total.registrationsAdded).toBe(sum((s) => s.total.registrationsAdded))
    expect(year.total.completions).toBe(sum((s) => s.total.completions))
    expect(year.total.registrationsAdded).toBe(plans.reduce((n, p) => n + p.registrations.length, 0))
    for (const line of year.lines) {
      const of = (s: Statement) => s.lines.find((l) => l.dispatchId === line.dispatchId)!
      expect(line.registrationsAdded).toBe(sum((s) => of(s).registrationsAdded))
      expect(line.completions).toBe(sum((s) => of(s).completions))
      // Licences left at the year's end are December's; a reset never makes a month negative.
      expect(line.remainingAtEnd).toBe(of(months[11]!).remainingAtEnd)
      expect(line.countAtEnd).toBe(of(months[11]!).countAtEnd)
      for (const month of months) expect(of(month).registrationsAdded).toBeGreaterThanOrEqual(0)
    }
    expect(year.total.remainingAtEnd).toBe(months[11]!.total.remainingAtEnd)
    // Distinct learners do not add up (a learner of two months is one in the year).
    const launched = plans.flatMap((p) => p.registrations).filter((r) => inWindow(r.firstAccess, utc(0, 1, 0), yearEnd))
    expect(year.total.learnersLaunched).toBe(new Set(launched.map((r) => r.learner)).size)
    expect(year.total.learnersLaunched).toBeLessThanOrEqual(sum((s) => s.total.learnersLaunched))
    // stmt-b all year, stmt-c since its cap was lifted in November.
    expect(year.total.unlimitedDispatches).toBe(2)
  })
})

describe('statement input and scope', () => {
  it('answers last month when neither a month nor a year is given', async () => {
    const res = await read('')
    expect(res.statusCode, res.body).toBe(200)
    const now = new Date()
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7)
    expect(res.json().period).toBe(last)
  })

  it.each(['month=2025-13', 'month=2025-1', 'month=25-01', 'year=20x5', 'month=2025-01&year=2025'])(
    'answers 400 with the expected form for %s',
    async (query) => {
      const res = await read(query)
      expect(res.statusCode).toBe(400)
      expect(res.json().message).toMatch(/yyyy-MM/)
    },
  )

  it('answers 400 for a month or a year that has not started', async () => {
    const next = new Date()
    next.setUTCMonth(next.getUTCMonth() + 1, 1)
    const res = await read(`month=${next.toISOString().slice(0, 7)}`)
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('A statement covers a past or the current month; this one has not started yet.')
    expect((await read(`year=${new Date().getUTCFullYear() + 1}`)).statusCode).toBe(400)
  })

  it("lets a client read its own company's statement and not another's (404), staff any, nobody signed out", async () => {
    const client = (await t.loginAs('client', { companyId: COMPANY })).headers
    expect((await read(`month=${monthLabel(3)}`, client)).statusCode).toBe(200)
    const other = await read(`month=${monthLabel(3)}`, client, 'stmt-other-co')
    expect(other.statusCode).toBe(404)
    expect(other.json().message).toBe('Company not found.')
    for (const role of ['internal', 'sales'] as const) {
      expect((await read(`month=${monthLabel(3)}`, (await t.loginAs(role)).headers)).statusCode).toBe(200)
    }
    expect((await read(`month=${monthLabel(3)}`, {})).statusCode).toBe(401)
    expect((await read(`month=${monthLabel(3)}`, admin, 'no-such-company')).statusCode).toBe(404)
  })

  it('exports the statement as CSV and .xlsx with a total row', async () => {
    const statement = await statementOf(`month=${monthLabel(6)}`)
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/statements/${COMPANY}/export?month=${monthLabel(6)}&format=csv`,
      headers: admin,
    })
    expect(csv.statusCode).toBe(200)
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="Statement Co - usage statement ${YEAR}-07.csv"`,
    )
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/)
    expect(lines[0]).toBe(
      'Course,Dispatch,Registrations Added,Learners Launched,Completions,Cap at End,Registrations at End,Licences Remaining',
    )
    expect(lines).toHaveLength(5)
    expect(lines[2]).toContain('Course stmt-b,stmt-b')
    expect(lines[2]).toContain('Unlimited')
    expect(lines[4]).toBe(
      `Total,3 dispatches,${statement.total.registrationsAdded},${statement.total.learnersLaunched},${statement.total.completions},N/A,N/A,${statement.total.remainingAtEnd} + 1 unlimited`,
    )
    const xlsx = await t.app.inject({
      method: 'GET',
      url: `/api/statements/${COMPANY}/export?month=${monthLabel(6)}&format=xlsx`,
      headers: admin,
    })
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer)
    const sheet = book.worksheets[0]!
    expect(sheet.getRow(2).getCell(3).value).toBe(statement.lines[0]!.registrationsAdded)
    expect(sheet.getRow(5).getCell(1).value).toBe('Total')
  })
})
