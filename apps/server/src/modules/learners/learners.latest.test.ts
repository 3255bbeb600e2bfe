import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asc, eq, sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { companyLearner } from '../../db/schema'
import { createTestDatabase } from '../../test/test-database'
import { insertDispatches, insertRegistrations } from '../dispatches/dispatches.test-data'

/**
 * A learner's e-mail, id and names on the learner list are those of their latest registration:
 * the most recently accessed, one never accessed after every accessed one, and on a tie the
 * lowest registration id. Both writers of the learner rows keep that rule: the refresh that the
 * registration triggers run, and the whole-company build of a first sync. On both databases.
 */
const COMPANY = 'latest-co'
let database: Database

const at = (day: string) => new Date(`${day}T12:00:00.000Z`)
// One learner is one e-mail, whatever its case: each registration spells it in its own case.
const learner = (email: string, tag: string) => ({
  learnerId: `id-${tag}`,
  learnerEmail: email,
  learnerFirstName: `First ${tag}`,
  learnerLastName: `Last ${tag}`,
})

beforeAll(async () => {
  database = await createTestDatabase()
  await insertDispatches(database.db, [
    { id: 'latest-d1', destinationId: COMPANY, courseId: 'latest-c1' },
    { id: 'latest-d2', destinationId: COMPANY, courseId: 'latest-c2' },
  ])
  await insertRegistrations(database.db, [
    // Ann: the one accessed last wins over an older one and one never accessed.
    {
      id: 'r-ann-1',
      dispatchId: 'latest-d1',
      ...learner('ann@example.test', 'ann-old'),
      lastAccessDate: at('2026-03-01'),
    },
    {
      id: 'r-ann-2',
      dispatchId: 'latest-d2',
      ...learner('ANN@example.test', 'ann-new'),
      lastAccessDate: at('2026-05-01'),
    },
    { id: 'r-ann-0', dispatchId: 'latest-d1', ...learner('Ann@example.test', 'ann-never'), lastAccessDate: null },
    // Bo: two accessed at the same instant; the lower id wins.
    { id: 'r-bo-y', dispatchId: 'latest-d1', ...learner('bo@example.test', 'bo-y'), lastAccessDate: at('2026-04-01') },
    { id: 'r-bo-x', dispatchId: 'latest-d2', ...learner('BO@example.test', 'bo-x'), lastAccessDate: at('2026-04-01') },
    // Cy: never accessed at all; the lower id wins.
    { id: 'r-cy-2', dispatchId: 'latest-d1', ...learner('cy@example.test', 'cy-2'), lastAccessDate: null },
    { id: 'r-cy-1', dispatchId: 'latest-d2', ...learner('Cy@example.test', 'cy-1'), lastAccessDate: null },
  ])
})
afterAll(async () => database.close())

async function rows() {
  return database.db
    .select({
      learnerId: companyLearner.learnerId,
      email: companyLearner.email,
      firstName: companyLearner.firstName,
      lastName: companyLearner.lastName,
      registrations: companyLearner.registrations,
    })
    .from(companyLearner)
    .where(eq(companyLearner.companyId, COMPANY))
    .orderBy(asc(companyLearner.learnerId))
}

// Ordered by learner id: each row's id is its latest registration's.
const expected = [
  {
    learnerId: 'id-ann-new',
    email: 'ANN@example.test',
    firstName: 'First ann-new',
    lastName: 'Last ann-new',
    registrations: 3,
  },
  { learnerId: 'id-bo-x', email: 'BO@example.test', firstName: 'First bo-x', lastName: 'Last bo-x', registrations: 2 },
  { learnerId: 'id-cy-1', email: 'Cy@example.test', firstName: 'First cy-1', lastName: 'Last cy-1', registrations: 2 },
]

describe("a learner's latest registration", () => {
  it('names the learner as the registration triggers keep the rows', async () => {
    expect(await rows()).toEqual(expected)
  })

  it('names the learner the same when the whole company is built again', async () => {
    await database.db.execute(sql`delete from company_learner where company_id = ${COMPANY}`)
    expect(await rows()).toEqual([])
    await database.db.execute(sql`select company_learner_build(${COMPANY})`)
    expect(await rows()).toEqual(expected)
  })
})
