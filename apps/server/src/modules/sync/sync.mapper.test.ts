import { describe, expect, it } from 'vitest'
import {
  learnerName,
  mapCourse,
  mapCourses,
  mapDestination,
  mapDispatch,
  mapRegistration,
  mapRegistrations,
  parseDate,
  toDate,
  toExpiration,
} from './sync.mapper'

describe('dates the mirror can hold', () => {
  it('reads a date outside 1000-9999 as absent, and a day that does not exist as unreadable', () => {
    expect(toDate('9999-12-31T23:59:59.999Z')?.toISOString()).toBe('9999-12-31T23:59:59.999Z')
    expect(toDate('1000-01-01T00:00:00Z')?.toISOString()).toBe('1000-01-01T00:00:00.000Z')
    for (const v of ['0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '9999-12-31T23:59:59-05:00', '0999-12-31']) {
      expect(toDate(v), v).toBeNull()
    }
    expect(parseDate('0000-01-01T00:00:00Z')?.getUTCFullYear()).toBe(0)
    expect(parseDate('2026-02-31T00:00:00Z')).toBeNull()
    expect(parseDate('2024-02-29T00:00:00Z')?.toISOString()).toBe('2024-02-29T00:00:00.000Z')
  })

  it('moves an expiry the mirror cannot hold to the nearest one it can: expired stays expired', () => {
    expect(toExpiration('0000-01-01T00:00:00Z')?.toISOString()).toBe('1000-01-01T00:00:00.000Z')
    expect(toExpiration('+020000-01-01T00:00:00Z')?.toISOString()).toBe('9999-12-31T23:59:59.999Z')
    expect(
      mapDispatch({ id: 'd', data: { courseId: 'c', destinationId: 'x', expirationDate: '0000-06-01' } }),
    ).toMatchObject({ expirationDate: new Date('1000-01-01T00:00:00.000Z') })
  })
})

describe('sync mapper (reference "Mapping to the portal")', () => {
  it.each([
    [null, null],
    ['', null],
    ['none', null],
    ['NONE', null],
    ['not a date', null],
    ['2027-03-05T14:07:11.000Z', '2027-03-05T14:07:11.000Z'],
  ])('expirationDate %j → %j', (input, expected) => {
    expect(toExpiration(input)?.toISOString() ?? null).toBe(expected)
  })

  it('maps a dispatch with the documented defaults', () => {
    expect(mapDispatch({ id: 'd1', data: { courseId: 'c1', destinationId: 'x1' } })).toEqual({
      id: 'd1',
      courseId: 'c1',
      courseTitle: null,
      destinationId: 'x1',
      destinationName: null,
      enabled: true,
      allowNewRegistrations: true,
      instanced: false,
      registrationCount: 0,
      registrationCap: 0, // missing = unlimited
      expirationDate: null,
      tags: [],
      notes: '',
      providerCreated: null,
      providerUpdated: null,
      registrationResetDate: null,
    })
    expect(mapDispatch({ id: 'd1', data: { courseId: 'c1' } })).toBeNull()
  })

  it('falls back to `Course {id}` for a course without a title, and to the id for a destination name', () => {
    expect(mapCourse({ id: 'c9' })).toMatchObject({ title: 'Course c9', registrationCount: 0, tags: [], version: null })
    expect(mapDestination({ id: 'x9', data: {} })).toMatchObject({ name: 'x9' })
  })

  it.each([
    ['COMPLETED', 'PASSED', 'completed', 'passed'],
    ['INCOMPLETE', 'FAILED', 'incomplete', 'failed'],
    ['UNKNOWN', 'UNKNOWN', 'not attempted', 'unknown'],
    [undefined, undefined, 'not attempted', 'unknown'],
  ] as const)('maps completion %s / success %s', (completion, success, c, s) => {
    const row = mapRegistration({
      id: 'r',
      dispatchId: 'd',
      registrationCompletion: completion,
      registrationSuccess: success,
    })
    expect(row).toMatchObject({ completionStatus: c, successStatus: s })
  })

  it('keeps score.scaled as 0..100, time in seconds, and missing values as null or 0', () => {
    expect(mapRegistration({ id: 'r', dispatchId: 'd', score: { scaled: 1 }, totalSecondsTracked: 5.5 })).toMatchObject(
      {
        scoreScaled: 1,
        totalSecondsTracked: 5.5,
      },
    )
    expect(mapRegistration({ id: 'r', dispatchId: 'd' })).toMatchObject({
      scoreScaled: null,
      totalSecondsTracked: 0,
      lastAccessDate: null,
      learnerEmail: '',
      instance: 0,
      courseId: null,
    })
  })

  it('splits a "Last, First" learner name only when firstName is empty', () => {
    expect(learnerName('', 'Sato, James')).toEqual({ first: 'James', last: 'Sato' })
    expect(learnerName('Ann', 'Lee, Jr')).toEqual({ first: 'Ann', last: 'Lee, Jr' })
    expect(learnerName(undefined, 'Solo')).toEqual({ first: '', last: 'Solo' })
  })

  it('counts items without an id as errors and leaves out registrations without a dispatchId', () => {
    const courses = mapCourses([{ id: 'a' }, { title: 'no id' }, null as never])
    expect(courses).toMatchObject({ errors: 2, ignored: 0 })
    expect(courses.rows.map((r) => r.id)).toEqual(['a'])
    const regs = mapRegistrations([{ id: 'r1', dispatchId: 'd' }, { id: 'r2' }, { id: '' }])
    expect(regs).toMatchObject({ errors: 1, ignored: 1 })
    expect(regs.rows.map((r) => r.id)).toEqual(['r1'])
  })
})
