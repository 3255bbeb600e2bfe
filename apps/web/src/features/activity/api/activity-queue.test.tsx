import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { server } from '@/testing/mocks/server'
import { makeSession, makeUser, storeSession } from '@/testing/data-generators'
import { recordRequests, renderApp, requestsTo, signInAs } from '@/testing/test-utils'
import { MAX_QUEUED_EVENTS, readQueue } from './activity-queue'
import { logAction } from './log-action'

const ACTION = '/api/logs/action'

const actionsFail = (response: () => Response) => server.use(http.post(ACTION, response))
const networkDown = () => HttpResponse.error()

describe('UI events that fail to send', () => {
  let warn: ReturnType<typeof vi.spyOn>
  beforeEach(() => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  })

  it('are queued in browser storage and sent with the next successful call', async () => {
    storeSession(makeSession(makeUser('client')))
    const log = recordRequests()
    actionsFail(networkDown)

    await logAction('HELP_BUTTON_CLICKED', 'first')
    expect(readQueue().map((e) => e.body)).toEqual([{ action: 'HELP_BUTTON_CLICKED', details: 'first' }])
    expect(warn).toHaveBeenCalled()

    server.resetHandlers()
    await logAction('COURSE_SEARCH_PERFORMED', 'second')

    expect(readQueue()).toEqual([])
    await waitFor(() =>
      expect(requestsTo(log, ACTION).map((r) => (r.body as { details: string }).details)).toEqual([
        'first',
        'second',
        'first',
      ]),
    )
  })

  it('are sent when the browser comes back online', async () => {
    signInAs('sales')
    const log = recordRequests()
    renderApp('/dashboard')
    await screen.findByRole('heading', { name: 'All Dispatches' })
    // The dashboard reports its own view first; this test is about the event after it.
    await waitFor(() => expect(requestsTo(log, ACTION)).toHaveLength(1))
    actionsFail(() => HttpResponse.json({ message: 'Unavailable' }, { status: 503 }))
    await logAction('DASHBOARD_VIEWED')
    expect(readQueue()).toHaveLength(1)

    server.resetHandlers()
    window.dispatchEvent(new Event('online'))

    await waitFor(() => expect(readQueue()).toEqual([]))
    const sent = requestsTo(log, ACTION)
      .slice(1)
      .map((r) => r.body)
    expect(sent).toEqual([{ action: 'DASHBOARD_VIEWED' }, { action: 'DASHBOARD_VIEWED' }])
  })

  it('keep at most 200 entries, dropping the oldest', async () => {
    storeSession(makeSession(makeUser('admin')))
    actionsFail(networkDown)
    for (let i = 0; i < MAX_QUEUED_EVENTS + 5; i += 1) await logAction('PAGE_VIEWED', `event ${i}`)

    const queue = readQueue()
    expect(queue).toHaveLength(MAX_QUEUED_EVENTS)
    expect(queue[0]?.body).toEqual({ action: 'PAGE_VIEWED', details: 'event 5' })
  })

  it('are not queued when the server refuses them (4xx), only logged', async () => {
    storeSession(makeSession(makeUser('admin')))
    actionsFail(() => HttpResponse.json({ message: 'Invalid action' }, { status: 400 }))

    await logAction('PAGE_VIEWED')

    expect(readQueue()).toEqual([])
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('not recorded'), expect.anything())
  })

  it('stay queued for their own user: another account never sends them', async () => {
    storeSession(makeSession(makeUser('admin')))
    actionsFail(networkDown)
    await logAction('PAGE_VIEWED', 'by admin')

    server.resetHandlers()
    storeSession(makeSession(makeUser('client')))
    const log = recordRequests()
    await logAction('PAGE_VIEWED', 'by client')

    await waitFor(() => expect(requestsTo(log, ACTION)).toHaveLength(1))
    expect(readQueue().map((e) => e.body)).toEqual([{ action: 'PAGE_VIEWED', details: 'by admin' }])
  })
})
