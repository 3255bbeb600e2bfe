import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { server } from '@/testing/mocks/server'
import { jobsOverviewFixture } from '@/testing/mocks/handlers/jobs'
import { navLinkNames, preloadRoutes, recordRequests, renderApp, requestsTo, signInAs } from '@/testing/test-utils'

beforeAll(preloadRoutes)

describe('admin Jobs screen', () => {
  it('is in the admin sidebar and shows every queue by state, and the last failure with its error', async () => {
    signInAs('admin')
    renderApp('/admin/jobs')
    expect(await navLinkNames()).toContain('Jobs')
    const table = await screen.findByRole('table', { name: 'Jobs by queue and state' })
    const outbox = within(table).getByRole('row', { name: /Mail sending/ })
    expect(
      within(outbox)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['1', '0', '0', '12', '0', '0', '* * * * *'])
    const postbacks = within(table).getByRole('row', { name: /Alert evaluation \(postbacks\)/ })
    expect(within(postbacks).getAllByRole('cell').at(-1)).toHaveTextContent('On demand')
    const failures = screen.getByRole('list', { name: 'Failed jobs' })
    expect(within(failures).getByText('Refused')).toBeInTheDocument()
    expect(
      within(failures).getByText('Error: Dispatch d-9 no longer exists in the mirror; there is nothing to evaluate.'),
    ).toBeInTheDocument()
    expect(within(failures).getByText(/1 attempt, last/)).toBeInTheDocument()
  })

  it('retries a failure through the API and says so; a refused cancel shows the server’s reason', async () => {
    const log = recordRequests()
    signInAs('admin')
    renderApp('/admin/jobs')
    await userEvent.click(await screen.findByRole('button', { name: 'Retry' }))
    expect(await screen.findByRole('status')).toHaveTextContent('The job will run again.')
    expect(requestsTo(log, '/api/admin/jobs/0b7e4b1a-3c4d-4e5f-8a9b-0c1d2e3f4a5b/retry')).toHaveLength(1)
    await userEvent.click(screen.getByRole('button', { name: 'Cancel job' }))
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('Only a waiting, retrying or running job can be cancelled'),
    )
  })

  it('says when nothing failed, and that a web node runs no jobs', async () => {
    server.use(
      http.get('/api/admin/jobs', () =>
        HttpResponse.json({ ...jobsOverviewFixture(), engine: { state: 'running', working: false }, failures: [] }),
      ),
    )
    signInAs('admin')
    renderApp('/admin/jobs')
    expect(await screen.findByText('No failed jobs')).toBeInTheDocument()
    expect(screen.getByText(/This node runs no jobs \(PORTAL_ROLE=web\)/)).toBeInTheDocument()
  })

  it('shows the error and a refresh when the jobs cannot be read', async () => {
    server.use(
      http.get('/api/admin/jobs', () =>
        HttpResponse.json({ code: 'NOT_READY', message: 'The job engine is stopped.' }, { status: 503 }),
      ),
    )
    signInAs('admin')
    renderApp('/admin/jobs')
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: The job engine is stopped.')
    expect(screen.getByRole('button', { name: 'Refresh Data' })).toBeInTheDocument()
  })

  it('is not offered to other roles, and sends them to the dashboard', async () => {
    const log = recordRequests()
    signInAs('sales')
    const { router } = renderApp('/admin/jobs')
    expect(await navLinkNames()).not.toContain('Jobs')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
    expect(requestsTo(log, '/api/admin/jobs')).toHaveLength(0)
  })
})
