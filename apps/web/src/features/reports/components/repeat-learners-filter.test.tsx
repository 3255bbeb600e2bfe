import type { LicenceCount } from '@portal/shared'
import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, renderApp, signInAs } from '@/testing/test-utils'

const TOGGLE = 'Only learners with more than one registration'

/** The query strings of every report request the app sends. */
function reportRequests(): Array<Record<string, string>> {
  const seen: Array<Record<string, string>> = []
  const listener = ({ request }: { request: Request }) => {
    const url = new URL(request.url)
    if (/^\/api\/reports\/dispatch\/[^/]+$/.test(url.pathname)) seen.push(Object.fromEntries(url.searchParams))
  }
  server.events.on('request:start', listener)
  onTestFinished(() => server.events.removeListener('request:start', listener))
  return seen
}

async function openReport(path: string) {
  signInAs('client')
  const seen = reportRequests()
  const view = renderApp(path)
  const section = within(await screen.findByRole('region', { name: 'Completion Report' }))
  await section.findByRole('table', { name: 'Learner registrations' })
  return { ...view, seen, section }
}

beforeAll(preloadRoutes)

describe('completion report: only learners with more than one registration', () => {
  it('asks for the filter when ticked, keeps it in the URL, and drops it when unticked', async () => {
    const { seen, section, router, user } = await openReport('/dispatches/d-1')
    const toggle = section.getByRole('checkbox', { name: TOGGLE })
    expect(toggle).not.toBeChecked()
    expect(seen[0]).not.toHaveProperty('repeatLearners')

    await user.click(toggle)
    await waitFor(() => expect(seen.at(-1)).toMatchObject({ repeatLearners: 'true', page: '1' }))
    expect(new URLSearchParams(router.state.location.search).get('repeatLearners')).toBe('true')
    expect(toggle).toBeChecked()

    // Unticked, the unfiltered report (asked first, so answered from the query cache).
    await user.click(toggle)
    await waitFor(() => expect(toggle).not.toBeChecked())
    expect(new URLSearchParams(router.state.location.search).has('repeatLearners')).toBe(false)
  })

  it('opens with the filter on from the URL, and Clear Filters turns it off', async () => {
    const { seen, section, router, user } = await openReport('/dispatches/d-1?repeatLearners=true')
    expect(section.getByRole('checkbox', { name: TOGGLE })).toBeChecked()
    expect(seen[0]).toMatchObject({ repeatLearners: 'true' })

    await user.click(section.getByRole('button', { name: 'Clear Filters' }))
    await waitFor(() => expect(section.getByRole('checkbox', { name: TOGGLE })).not.toBeChecked())
    expect(router.state.location.search).not.toContain('repeatLearners')
  })

  it('links from the licence count’s over-count to the report with the filter on', async () => {
    server.use(
      http.get<{ id: string }>('*/api/dispatches/:id/licence-count', ({ params }) =>
        HttpResponse.json<LicenceCount>({
          dispatchId: params.id,
          registrations: 5,
          learners: 3,
          repeatLearners: 1,
          extraRegistrations: 2,
          learnersShown: [{ learnerId: 'l-1', name: 'Ann Archer', email: 'ann@acme.test', registrations: 3 }],
        }),
      ),
    )
    const { seen, section, router, user } = await openReport('/dispatches/d-1')
    await user.click(await screen.findByRole('link', { name: 'Show their registrations in the completion report' }))
    await waitFor(() => expect(section.getByRole('checkbox', { name: TOGGLE })).toBeChecked())
    expect(router.state.location.search).toBe('?repeatLearners=true')
    await waitFor(() => expect(seen.at(-1)).toMatchObject({ repeatLearners: 'true' }))
  })
})
