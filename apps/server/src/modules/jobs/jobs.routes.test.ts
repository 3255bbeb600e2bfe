import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appParts } from '../../app'
import { buildTestApp, runDueJobs, type TestContext } from '../../test/helpers'

let t: TestContext
let admin: { 'x-auth-token': string }

const overview = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/jobs', headers: admin })
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}
const queue = async (name: string) => (await overview()).queues.find((q: { name: string }) => q.name === name)
const post = (url: string, headers = admin) => t.app.inject({ method: 'POST', url, headers })

beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
})
afterAll(async () => t?.close())

describe('admin Jobs API', () => {
  it('lists every queue of the portal with its counts by state and its schedules', async () => {
    const body = await overview()
    expect(body.engine).toEqual({ state: 'running', working: true })
    expect(body.queues.map((q: { name: string }) => q.name).sort()).toEqual(
      [
        'alerts-evaluate',
        'alerts-postback',
        'dispatch-bulk',
        'dispatch-renewals',
        'log-partitions',
        'mail-outbox',
        'mail-scheduled',
        'planner-statistics',
        'statement-mails',
        'webhook-deliver',
      ].sort(),
    )
    // The monthly usage statements: the first of each month.
    expect(body.queues.find((q: { name: string }) => q.name === 'statement-mails').schedules).toEqual(['0 5 1 * *'])
    const partitions = body.queues.find((q: { name: string }) => q.name === 'log-partitions')
    expect(partitions.schedules).toEqual(['17 0 * * *'])
    // Sent when the node started.
    expect(partitions.counts.created + partitions.counts.completed).toBe(1)
    await runDueJobs(t.app)
    expect((await queue('log-partitions')).counts).toMatchObject({ created: 0, completed: 1, failed: 0 })
  })

  it('shows a postback job whose dispatch was deleted as failed with its reason, run once, never retried', async () => {
    await appParts(t.app).alerts.notePostback('d-deleted-since')
    await runDueJobs(t.app)
    const { failures } = await overview()
    expect(failures).toEqual([
      expect.objectContaining({
        queue: 'alerts-postback',
        error: 'Dispatch d-deleted-since no longer exists in the mirror; there is nothing to evaluate.',
        rejected: true,
        attempts: 1,
        data: { dispatchId: 'd-deleted-since' },
      }),
    ])
    expect((await queue('alerts-postback')).counts).toMatchObject({ failed: 1, retry: 0, created: 0, active: 0 })
  })

  it('retries a failed job: it runs again (and here fails again, for the same reason)', async () => {
    const [failure] = (await overview()).failures
    const res = await post(`/api/admin/jobs/${failure.id}/retry`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ message: 'The job will run again.' })
    expect((await queue('alerts-postback')).counts.failed).toBe(0)
    await runDueJobs(t.app)
    expect((await queue('alerts-postback')).counts.failed).toBe(1)
  })

  it('cancels a waiting job, and refuses to cancel it twice or to retry a completed one', async () => {
    const id = (await appParts(t.app).jobs.send('alerts-evaluate', {}))!
    const res = await post(`/api/admin/jobs/${id}/cancel`)
    expect(res.statusCode, res.body).toBe(200)
    expect((await queue('alerts-evaluate')).counts).toMatchObject({ cancelled: 1, created: 0 })
    const again = await post(`/api/admin/jobs/${id}/cancel`)
    expect(again.statusCode).toBe(409)
    expect(again.json().message).toContain('Only a waiting, retrying or running job can be cancelled')
    await runDueJobs(t.app)
    const done = (await appParts(t.app).jobs.send('alerts-evaluate', {}))!
    await runDueJobs(t.app)
    const retry = await post(`/api/admin/jobs/${done}/retry`)
    expect(retry.statusCode).toBe(409)
    expect(retry.json().message).toContain('Only a failed or cancelled job can be retried')
  })

  it('answers 404 for an unknown job and 400 for an id that is not one', async () => {
    const missing = await post('/api/admin/jobs/00000000-0000-4000-8000-00000000beef/retry')
    expect(missing.statusCode).toBe(404)
    expect(missing.json().message).toContain('No such job')
    const bad = await post('/api/admin/jobs/not-a-uuid/cancel')
    expect(bad.statusCode).toBe(400)
  })

  it.each(['internal', 'sales', 'client'] as const)('is refused to %s', async (role) => {
    const { headers } = await t.loginAs(role)
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/jobs', headers })).statusCode).toBe(403)
    const [failure] = (await overview()).failures
    expect((await post(`/api/admin/jobs/${failure.id}/retry`, headers)).statusCode).toBe(403)
    expect((await post(`/api/admin/jobs/${failure.id}/cancel`, headers)).statusCode).toBe(403)
    expect((await queue('alerts-postback')).counts.failed).toBe(1)
  })

  it('answers 503 while the job engine is not running', async () => {
    await appParts(t.app).jobs.stop()
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/jobs', headers: admin })
    expect(res.statusCode).toBe(503)
    expect(res.json().message).toBe('The job engine is stopped.')
    await appParts(t.app).jobs.start()
  })

  it('is in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json()
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/admin/jobs/', '/api/admin/jobs/{id}/retry', '/api/admin/jobs/{id}/cancel']),
    )
  })
})
