import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { DESCRIPTION_MAX_BYTES, type CourseDetails } from '@portal/shared'
import { course } from '../../db/schema'
import { buildTestApp, type TestContext } from '../../test/helpers'
import { createSyncRepository } from '../sync/sync.repository'
import { activityOf, courseRow, insertCourses } from './courses.test-data'

type Headers = { 'x-auth-token': string }
let t: TestContext
let admin: Headers

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
})
beforeEach(async () => {
  await t.database.db.delete(course)
  await insertCourses(t.database.db, [{ id: 'c-1', title: 'Provider Title', isVisible: true, version: 3 }])
})
afterAll(async () => t.close())

const put = (url: string, payload: unknown, headers: Headers = admin) =>
  t.app.inject({ method: 'PUT', url, payload: payload as object, headers })

const FULL = {
  title: 'Admin Title',
  imageUrl: 'https://img.example/c.png',
  summary: ' A short summary ',
  description: '<h2>About</h2><p onclick="x()">Learn <strong>well</strong><script>alert(1)</script></p>',
  duration: '2 hours',
  level: 'Intermediate',
  isRequestable: false,
  demoUrl: 'https://demo.example/c-1',
}

describe('PUT /api/courses/{id}/details', () => {
  it('saves the form, sanitising the description, and logs COURSE_DETAIL_EDIT_SAVED', async () => {
    const res = await put('/api/courses/c-1/details', FULL)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<CourseDetails>()).toMatchObject({
      id: 'c-1',
      title: 'Admin Title',
      imageUrl: 'https://img.example/c.png',
      summary: 'A short summary',
      description: '<h2>About</h2><p>Learn <strong>well</strong></p>',
      duration: '2 hours',
      level: 'Intermediate',
      isRequestable: false,
      demoUrl: 'https://demo.example/c-1',
    })
    const row = await courseRow(t.database.db, 'c-1')
    expect(row).toMatchObject({ title: 'Provider Title', titleOverride: 'Admin Title' })
    const [log] = await activityOf(t.database.db, 'COURSE_DETAIL_EDIT_SAVED')
    expect(log?.details).toMatchObject({ courseId: 'c-1', courseTitle: 'Admin Title' })
  })

  it('strips script, event handlers and javascript:/data:text/html links, keeping the toolbar formatting', async () => {
    const kept =
      '<h1>Title</h1><h3>Part</h3><p><strong>b</strong> <em>i</em> <u>u</u> <s>s</s></p>' +
      '<ol><li>one</li></ol><ul><li>two</li></ul><blockquote>q</blockquote><pre>code</pre>' +
      '<p><a target="_blank" rel="noopener noreferrer nofollow" href="https://e.example/a">web</a> ' +
      '<a target="_blank" rel="noopener noreferrer nofollow" href="mailto:help@e.example">mail</a> ' +
      '<a target="_blank" rel="noopener noreferrer nofollow" href="tel:+15551234">call</a></p>'
    const hostile =
      '<p onmouseover="steal()">hover<script>alert(1)</script></p>' +
      '<img src="https://img.example/a.png" onerror="alert(2)" />' +
      '<p><a href="javascript:alert(3)">js</a> <a href="data:text/html;base64,PHNjcmlwdD4=">data</a></p>'
    const res = await put('/api/courses/c-1/details', { description: kept + hostile })
    expect(res.statusCode, res.body).toBe(200)
    const expected =
      kept +
      '<p>hover</p><img src="https://img.example/a.png" />' +
      '<p><a target="_blank" rel="noopener noreferrer nofollow">js</a> ' +
      '<a target="_blank" rel="noopener noreferrer nofollow">data</a></p>'
    expect(res.json<CourseDetails>().description).toBe(expected)
    expect((await courseRow(t.database.db, 'c-1')).description).toBe(expected)
    // What the details route serves afterwards is the sanitised copy.
    const shown = await t.app.inject({ method: 'GET', url: '/api/courses/c-1/details', headers: admin })
    expect(shown.json<CourseDetails>().description).toBe(expected)
  })

  it('keeps the admin title when a sync refreshes the provider title; empty restores the provider title', async () => {
    await put('/api/courses/c-1/details', { title: 'Admin Title' })
    await t.database.db.transaction((tx) =>
      createSyncRepository(t.database.db).upsertCourses(
        [
          {
            id: 'c-1',
            title: 'Renamed Upstream',
            version: 4,
            providerCreated: null,
            providerUpdated: new Date(),
            registrationCount: 0,
            appSource: null,
            tags: [],
            learningStandard: null,
          },
        ],
        tx,
      ),
    )
    expect(await courseRow(t.database.db, 'c-1')).toMatchObject({
      title: 'Renamed Upstream',
      titleOverride: 'Admin Title',
    })
    const cleared = await put('/api/courses/c-1/details', { title: '' })
    expect(cleared.json<CourseDetails>().title).toBe('Renamed Upstream')
  })

  it('clears the URLs with empty strings', async () => {
    await put('/api/courses/c-1/details', FULL)
    const res = await put('/api/courses/c-1/details', { imageUrl: '', demoUrl: '' })
    expect(res.json<CourseDetails>()).toMatchObject({ imageUrl: null, demoUrl: null })
  })

  it.each([
    [{ demoUrl: 'javascript:alert(1)' }, 'Demo URL must be an http or https URL.'],
    [{ demoUrl: 'not a url' }, 'Demo URL must be an http or https URL.'],
    [{ imageUrl: 'data:text/html,x' }, 'Image URL must be an http or https URL.'],
  ])('refuses %j with 400, saves nothing and logs COURSE_DETAIL_EDIT_FAILED', async (body, message) => {
    const before = await courseRow(t.database.db, 'c-1')
    const res = await put('/api/courses/c-1/details', { ...body, summary: 'changed' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ message })
    expect(await courseRow(t.database.db, 'c-1')).toEqual(before)
    const failed = await activityOf(t.database.db, 'COURSE_DETAIL_EDIT_FAILED')
    expect(failed.at(-1)?.details).toMatchObject({ courseId: 'c-1', error: message })
  })

  it('refuses a level outside the list', async () => {
    const res = await put('/api/courses/c-1/details', { level: 'Expert' })
    expect(res.statusCode).toBe(400)
  })

  it('refuses a description over 500 KB with a clear 400 and saves nothing', async () => {
    const before = await courseRow(t.database.db, 'c-1')
    const description = `<p>${'a'.repeat(DESCRIPTION_MAX_BYTES)}</p>`
    const res = await put('/api/courses/c-1/details', { description, summary: 'changed' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ message: 'Description is too large.' })
    expect(await courseRow(t.database.db, 'c-1')).toEqual(before)
  })

  it('accepts a description just under the limit', async () => {
    const description = `<p>${'a'.repeat(DESCRIPTION_MAX_BYTES - 100)}</p>`
    const res = await put('/api/courses/c-1/details', { description })
    expect(res.statusCode).toBe(200)
    expect((await courseRow(t.database.db, 'c-1')).description).toBe(description)
  })

  it('answers 404 for an unknown course', async () => {
    expect((await put('/api/courses/nope/details', { summary: 'x' })).statusCode).toBe(404)
  })
})

describe('PUT /api/courses/{id}/visibility', () => {
  it('hides and shows a course and logs COURSE_VISIBILITY_CHANGED', async () => {
    const res = await put('/api/courses/c-1/visibility', { isVisible: false })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ id: 'c-1', isVisible: false })
    expect((await courseRow(t.database.db, 'c-1')).isVisible).toBe(false)
    await put('/api/courses/c-1/visibility', { isVisible: true })
    expect((await courseRow(t.database.db, 'c-1')).isVisible).toBe(true)
    const logs = await activityOf(t.database.db, 'COURSE_VISIBILITY_CHANGED')
    expect(logs.slice(-2).map((l) => l.details)).toEqual([
      { courseId: 'c-1', courseTitle: 'Provider Title', before: true, after: false },
      { courseId: 'c-1', courseTitle: 'Provider Title', before: false, after: true },
    ])
  })

  it('requires isVisible', async () => {
    expect((await put('/api/courses/c-1/visibility', {})).statusCode).toBe(400)
  })
})
