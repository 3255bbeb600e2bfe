import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type Simulator } from '@portal/scorm-cloud-sim'
import { can, type Permission, type Role } from '@portal/shared'
import { courseRequest } from '../../db/schema'
import { buildTestApp, runDueJobs, testConfig, type TestContext } from '../helpers'
import { MISSING_ID, seedAccessFixture, type AccessFixture } from '../security/access-fixture'
import { ROUTE_RULES, type IdResource } from '../security/access-rules'
import { CLASSES, sample, variantsFor, type BadValue } from './bad-values'
import {
  fieldName,
  operationsOf,
  unboundedNodes,
  type Field,
  type OpenApiDocument,
  type Operation,
} from './openapi-walk'
import { badRequest, controlRequest, type BaseRequest } from './requests'
import { installWriteJournal, type JournalRow } from './write-journal'
import { appParts } from '../../app'

/**
 * generated from the server's own OpenAPI document: every operation, every path and
 * query parameter and every body field at any depth, sent each class of bad input (wrong
 * types, lone surrogates, NUL, over-long and odd strings, overflowing numbers, dates at the
 * edges of what JavaScript and PostgreSQL hold, deep and wide JSON, odd array shapes) by a
 * caller the route admits, against a real target. No answer may be a 5xx; every refusal is
 * JSON with a message, a 400 names the field, and a refused request changes nothing (every
 * committed write, in any table, is re-read after each request). A route added later is in
 * the document, so it is sent all of this too, and the bounds test fails until its inputs
 * are bounded.
 */

/** Variants sent per class and input: the sharpest always, the rest rotated over inputs. */
const PER_CLASS = 4
const ROLES: Role[] = ['admin', 'internal', 'sales', 'client']

let sim: Simulator
let t: TestContext
let fx: AccessFixture
let journal: Awaited<ReturnType<typeof installWriteJournal>>
let operations: Operation[]
let dispatchId: string
/** A company and a course of the provider with no dispatch between them (POST /api/dispatches). */
let freePair: { companyId: string; courseId: string }
/** A request for another such pair (POST /api/course-requests/:id/fulfil reaches the provider). */
let upstreamRequestId: string

/** Routes public to the session check that hold credentials of their own. */
function ownCredentials(): Record<string, Record<string, string>> {
  const { postbackUser, postbackPassword } = testConfig()
  const basic = Buffer.from(`${postbackUser}:${postbackPassword}`).toString('base64')
  return { 'POST /api/webhooks/scorm-cloud/registrations': { authorization: `Basic ${basic}` } }
}

beforeAll(async () => {
  sim = await startSimulator({
    sizes: { courses: 3, destinations: 2, dispatches: 3, registrations: 6, bigDispatchRegistrations: 0 },
    pageSize: 20,
  })
  // With SCORM Cloud (the simulator) configured, so provider-backed routes do their real work.
  const scormCloud = { baseUrl: sim.url, appId: sim.appId, secretKey: sim.secretKey }
  t = await buildTestApp({ config: testConfig({ scormCloud }) })
  await appParts(t.app).sync!.run({ trigger: 'manual' })
  dispatchId = sim.data.listDispatchIds()[0]!
  const taken = new Set(
    sim.data.listDispatchIds().map((id) => {
      const d = sim.data.getDispatch(id)!
      return `${d.destinationId}|${d.courseId}`
    }),
  )
  const free = sim.data
    .listDestinationIds()
    .flatMap((companyId) => sim.data.listCourseIds().map((courseId) => ({ companyId, courseId })))
    .filter((p) => !taken.has(`${p.companyId}|${p.courseId}`))
  freePair = free[0]!
  const [request] = await t.database.db
    .insert(courseRequest)
    .values({
      courseId: free[1]!.courseId,
      courseTitle: 'Upstream course',
      companyId: free[1]!.companyId,
      requestorName: 'Requestor',
      requestorEmail: 'requestor@example.test',
      licenses: 3,
    })
    .returning({ id: courseRequest.id })
  upstreamRequestId = request!.id
  fx = await seedAccessFixture(t)
  journal = await installWriteJournal(t.database.db)
  // The provider syncs last: a full run that does not see the fixture's companies upstream
  // (they exist in the mirror only) counts toward marking them removed (the rule of two
  // runs), after which routes that need them would refuse for that reason, not the field's.
  const syncsLast = (op: Operation) => (/\/sync$/.test(op.route) ? 1 : 0)
  operations = operationsOf(t.app.swagger() as unknown as OpenApiDocument).sort((a, b) => syncsLast(a) - syncsLast(b))
}, 120_000)
afterAll(async () => {
  await t?.close()
  await sim?.close()
})

const keyOf = (op: Operation) => `${op.method} ${op.route}`

async function targetOf(resource: IdResource | undefined): Promise<string> {
  switch (resource) {
    case 'dispatch':
      return dispatchId // in the mirror and upstream: an edit reaches the provider
    case 'company':
      return fx.company.own
    case 'course':
      return fx.course.own
    case 'request':
      return fx.request.own
    case 'user':
      return (await fx.freshUsers()).own // the operation may suspend or delete it
    case 'alert':
      return fx.alert.own
    case 'job':
      return fx.job.own // a well-formed job id: the route answers 404, the bad values 400
    case 'apiKey':
      return fx.apiKey.own
    case 'webhook':
      return fx.webhook.own
    case 'webhookFresh':
      return (await fx.freshWebhooks()).own // the operation deletes it
    default:
      return MISSING_ID
  }
}

async function baseOf(op: Operation): Promise<BaseRequest & { payload: () => unknown }> {
  const rule = ROUTE_RULES[keyOf(op)]
  const declared = t.app
    .registeredRoutes()
    .find((r) => r.method === op.method && r.url.replace(/(.)\/$/, '$1') === op.route)
  let headers: Record<string, string> = {}
  if (declared?.public) headers = ownCredentials()[keyOf(op)] ?? {}
  else {
    const role = ROLES.find((r) => declared?.permission && can(r, declared.permission as Permission))
    if (role) headers = fx.headers[role]
  }
  // A company's delivery settings are written to the provider: a company it knows.
  const upstream: Record<string, string | undefined> = {
    'POST /api/course-requests/:id/fulfil': upstreamRequestId,
    'PUT /api/companies/:id/delivery': sim.data.getDispatch(dispatchId)!.destinationId,
  }
  const id = upstream[keyOf(op)] ?? (await targetOf(rule?.id))
  // A new dispatch needs a pair the provider knows (the fixture's companies are the mirror's only).
  const payload = () =>
    keyOf(op) === 'POST /api/dispatches' ? { ...freePair } : rule?.payload ? rule.payload('own', fx) : undefined
  // A learner is addressed by e-mail; single sign-on's public routes by company. A factor or session of the caller's own
  // (or a single sign-on test): none exists under this UUID, so a valid request is a 404 and a bad one a 400 naming the field.
  const none = '00000000-0000-4000-8000-000000000000'
  return {
    pathValues: {
      id,
      companyId: fx.company.own,
      email: 'learner@example.test',
      factorId: none,
      sessionId: none,
      flowId: none,
      deliveryId: '999999999', // a delivery that does not exist: a valid resend is a 404
    },
    body: payload(),
    headers,
    payload,
  }
}

/**
 * Values no route may take whatever its schema says (the input guard): lone surrogates and NUL
 * (PostgreSQL cannot store them; the pg driver would silently turn a surrogate into U+FFFD),
 * nesting past 32 levels, JSON numbers that parse as Infinity. Query strings cannot carry a lone
 * surrogate (the parser decodes bytes, not UTF-16), but can carry NUL.
 */
function mustRefuse(field: Field, bad: BadValue): boolean {
  if (bad.cls === 'nul') return true
  if (field.part !== 'body') return false
  if (bad.cls === 'surrogate') return true
  if (bad.cls === 'deep') return bad.label.includes('nested')
  return bad.cls === 'number' && (bad.json === '1e999' || bad.json === '-1e999')
}

const norm = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '')

/** A 400 names the field: in its details, or in its message (a rule's text). */
function namesField(body: { message?: string; details?: { field?: string }[] }, field: Field): boolean {
  const wanted = norm(fieldName(field))
  const leaf = norm(field.path[field.path.length - 1]!)
  // `path`: the router refused the segment; `body`: the parser refused the body as a whole.
  const accepted = [wanted, field.part === 'path' ? 'path' : 'body']
  if (body.details?.some((d) => accepted.some((a) => norm(d.field ?? '').startsWith(a)))) return true
  return norm(body.message ?? '').includes(leaf.length > 1 ? leaf : wanted)
}

/**
 * What a refusal may still write: the audit row of a refused rule (and the log's day counts,
 * which its trigger keeps: migration 0008), a failed sign-in's count.
 */
function allowedWrite(row: JournalRow, strict: boolean): boolean {
  if (strict) return false
  const auditAction = /_FAILED$/.test(row.action ?? '')
  return (
    (row.tbl === 'activity_log' && auditAction) ||
    (row.tbl === 'activity_log_day' && (auditAction || row.action === '*')) ||
    row.tbl === 'activity_log_user_day' ||
    row.tbl === 'login_throttle'
  )
}

const safeJson = (text: string) => {
  try {
    return JSON.parse(text) as { code?: string; message?: string; details?: { field?: string }[] }
  } catch {
    return null
  }
}

describe('bad input on every operation of the OpenAPI document', () => {
  it('every string, number, array and free-form value of every request schema is bounded', () => {
    const problems = operations.flatMap((op) =>
      op.fields
        .filter((f) => f.path.length === 1 || f.part !== 'body')
        .flatMap((f) => unboundedNodes(f.schema, `${keyOf(op)} ${f.part}:${fieldName(f)}`)),
    )
    expect(problems).toEqual([])
    expect(operations.length).toBeGreaterThan(30)
  })

  it('the bounds check is not vacuous: it flags what an unbounded route would declare', () => {
    expect(
      unboundedNodes(
        {
          type: 'object',
          properties: {
            name: { type: 'string' },
            page: { type: 'integer', minimum: 1 },
            tags: { type: 'array', items: { type: 'string', maxLength: 5 } },
            extra: { type: 'object', additionalProperties: {} },
            anything: {},
            fine: {
              anyOf: [
                { type: 'string', enum: ['a'] },
                { type: 'number', minimum: 0, maximum: 1 },
              ],
            },
          },
        },
        'x',
      ),
    ).toEqual([
      'x/name: string without maxLength',
      'x/page: integer without minimum and maximum',
      'x/tags: array without maxItems',
      'x/extra: open object without maxProperties',
      'x/extra/*: free-form value without maxDepth and maxJsonLength',
      'x/anything: free-form value without maxDepth and maxJsonLength',
    ])
  })

  it('no bad input answers 5xx; every refusal is JSON naming the field and changes nothing', async () => {
    const problems: string[] = []
    const sent = new Set<string>()
    const statuses = new Map<number, number>()
    let inputs = 0
    let writesAccepted = 0
    let seed = 0

    for (const op of operations) {
      const base = await baseOf(op)
      // The control: the operation with valid input works, so each bad value is tested alone.
      await journal.since()
      const control = await t.app.inject(controlRequest(op, base))
      // A settings change evaluates alerts in the background: its writes belong to the control.
      await runDueJobs(t.app)
      const controlBody = safeJson(control.body)
      const expected401 = ROUTE_RULES[keyOf(op)]?.publicStatus?.includes(401) ?? false
      const unauthorised = control.statusCode === 401 && !expected401
      if (control.statusCode >= 500 || controlBody?.code === 'VALIDATION_FAILED' || unauthorised) {
        problems.push(`${keyOf(op)} control: ${control.statusCode} ${control.body.slice(0, 200)}`)
      }
      await journal.since()

      for (const [index, field] of op.fields.entries()) {
        // The megabyte-sized values test limits of the whole request (body size, parse, walk):
        // each operation gets them once, in its first input of each part.
        const heavy = op.fields.findIndex((f) => f.part === field.part) === index
        const values: BadValue[] = sample(variantsFor(field), PER_CLASS, (seed += 1), heavy)
        for (const bad of values) {
          // Fresh for each request: payloads may carry unique values (a new user's email).
          const request = badRequest(op, { ...base, body: base.payload() ?? base.body }, field, bad)
          if (!request) continue
          const label = `${keyOf(op)} ${field.part}:${fieldName(field)} = ${bad.cls}: ${bad.label}`
          const res = await t.app.inject(request)
          await runDueJobs(t.app)
          const writes = await journal.since()
          inputs += 1
          sent.add(`${keyOf(op)}|${field.part}:${fieldName(field)}|${bad.cls}`)
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)

          if (res.statusCode >= 500) {
            problems.push(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`)
            continue
          }
          if (res.statusCode < 400) {
            writesAccepted += writes.length
            if (mustRefuse(field, bad)) problems.push(`${label}: accepted with ${res.statusCode}`)
            continue
          }
          const body = safeJson(res.body)
          if (typeof body?.message !== 'string' || body.message.length === 0) {
            problems.push(`${label}: ${res.statusCode} without a JSON message: ${res.body.slice(0, 120)}`)
          } else if (res.statusCode === 400 && !namesField(body, field)) {
            problems.push(`${label}: 400 does not name the field: ${res.body.slice(0, 200)}`)
          }
          const strict = body?.code === 'VALIDATION_FAILED' || [413, 414, 415].includes(res.statusCode)
          const wrong = writes.filter((w) => !allowedWrite(w, strict))
          if (wrong.length > 0) {
            const what = wrong.map((w) => `${w.op} ${w.tbl}${w.action ? ` ${w.action}` : ''}`).join(', ')
            problems.push(`${label}: refused with ${res.statusCode} but wrote ${what}`)
          }
        }
      }
    }

    expect(problems).toEqual([])
    // Every operation × input × class of the document was sent at least once.
    const missing = operations.flatMap((op) =>
      op.fields.flatMap((f) =>
        CLASSES.filter((cls) => {
          const forms = variantsFor(f)[cls].filter((v) => f.part === 'body' || (v.query && v.query.raw))
          return forms.length > 0 && !sent.has(`${keyOf(op)}|${f.part}:${fieldName(f)}|${cls}`)
        }).map((cls) => `${keyOf(op)} ${f.part}:${fieldName(f)} ${cls}`),
      ),
    )
    expect(missing).toEqual([])
    expect(inputs, `${inputs} bad inputs sent`).toBeGreaterThan(3000)
    // Refusals and acceptances both happened: the inputs reached validation and beyond.
    expect(statuses.get(400) ?? 0).toBeGreaterThan(1000)
    expect([...statuses.keys()].some((s) => s >= 200 && s < 300)).toBe(true)
    // The journal sees writes: accepted odd values (a user created, a dispatch edited) did write.
    expect(writesAccepted).toBeGreaterThan(100)
  }, 600_000)
})
