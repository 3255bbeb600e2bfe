import type { Dispatch, UpdateDispatchBody } from '@portal/shared'
import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { makeDispatch } from '@/testing/mocks/handlers/dispatches'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, recordRequests, renderApp, requestsTo, signInAs } from '@/testing/test-utils'

const DETAIL = '/api/dispatches/:id'
const PROVIDER_ERROR = 'SCORM Cloud refused the change: dispatch is locked by another process'

/** The mirror as the server would hold it: GET answers the latest saved state. */
function useStoredDispatch(initial: Partial<Dispatch> = {}) {
  let stored = makeDispatch(initial)
  server.use(
    http.get(DETAIL, () => HttpResponse.json(stored)),
    http.put<{ id: string }, UpdateDispatchBody>(DETAIL, async ({ request }) => {
      stored = { ...stored, ...(await request.json()) } as Dispatch
      return HttpResponse.json(stored)
    }),
  )
}

const providerRefuses = () =>
  server.use(
    http.put(DETAIL, () => HttpResponse.json({ code: 'UPSTREAM_FAILED', message: PROVIDER_ERROR }, { status: 502 })),
  )

const puts = (log: ReturnType<typeof recordRequests>) =>
  requestsTo(log, '/api/dispatches/d-1').filter((r) => r.method === 'PUT')

const card = () => within(screen.getByRole('region', { name: /General Information/ }))

beforeAll(preloadRoutes)

describe('admin dispatch controls (docs/product-decisions.md D10)', () => {
  it('asks before disabling; Cancel sends nothing', async () => {
    signInAs('admin')
    useStoredDispatch()
    const log = recordRequests()
    const { user } = renderApp('/dispatches/d-1')

    await user.click(await screen.findByRole('button', { name: 'Disable Dispatch' }))
    const dialog = screen.getByRole('alertdialog', { name: 'Disable this dispatch?' })
    expect(dialog).toHaveTextContent('Learners of Acme Learning will not be able to launch Workplace Safety Basics')
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus()

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
    expect(puts(log)).toEqual([])
    expect(card().getByText('Enabled')).toBeInTheDocument()
  })

  it('shows the provider’s message when disabling fails and keeps the dispatch enabled', async () => {
    signInAs('admin')
    useStoredDispatch()
    providerRefuses()
    const log = recordRequests()
    const { user } = renderApp('/dispatches/d-1')

    await user.click(await screen.findByRole('button', { name: 'Disable Dispatch' }))
    const dialog = screen.getByRole('alertdialog')
    await user.click(within(dialog).getByRole('button', { name: 'Disable Dispatch' }))

    expect(await screen.findByRole('alert')).toHaveTextContent(PROVIDER_ERROR)
    expect(puts(log).map((r) => r.body)).toEqual([{ enabled: false }])
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
    expect(card().getByText('Enabled')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Disable Dispatch' })).toBeEnabled()
  })

  it('disables after confirmation and shows the new state', async () => {
    signInAs('admin')
    useStoredDispatch()
    const log = recordRequests()
    const { user } = renderApp('/dispatches/d-1')

    await user.click(await screen.findByRole('button', { name: 'Disable Dispatch' }))
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Disable Dispatch' }))

    expect(await screen.findByText('Dispatch disabled.')).toBeInTheDocument()
    expect(card().getByText('Disabled')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Enable Dispatch' })).toBeInTheDocument()
    expect(puts(log).map((r) => r.body)).toEqual([{ enabled: false }])
  })

  it('says so when SCORM Cloud saved the change but the portal has not recorded it yet (202)', async () => {
    const BEHIND =
      'Saved in SCORM Cloud, but the portal could not record the change yet. It will show here after the next sync.'
    signInAs('admin')
    useStoredDispatch()
    server.use(
      http.put(DETAIL, () =>
        HttpResponse.json({ ...makeDispatch({ enabled: false }), message: BEHIND }, { status: 202 }),
      ),
    )
    const { user } = renderApp('/dispatches/d-1')

    await user.click(await screen.findByRole('button', { name: 'Disable Dispatch' }))
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Disable Dispatch' }))

    expect(await screen.findByText(BEHIND)).toBeInTheDocument()
    expect(screen.queryByText('Dispatch disabled.')).not.toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('saves only the changed fields of the edit form and shows them', async () => {
    signInAs('admin')
    useStoredDispatch()
    const log = recordRequests()
    const { user } = renderApp('/dispatches/d-1')

    await user.click(await screen.findByRole('button', { name: 'Edit Dispatch' }))
    const form = within(screen.getByRole('form', { name: 'Edit dispatch' }))
    expect(form.getByLabelText('SCORM Expiry Date')).toHaveValue('2026-12-31')
    await user.clear(form.getByLabelText('Registration cap'))
    await user.type(form.getByLabelText('Registration cap'), '0')
    await user.click(form.getByRole('button', { name: 'Clear SCORM Expiry Date' }))
    await user.clear(form.getByLabelText('Tags'))
    await user.type(form.getByLabelText('Tags'), 'compliance, safety , compliance')
    await user.click(form.getByRole('button', { name: 'Save Changes' }))

    expect(await screen.findByText('Dispatch updated successfully.')).toBeInTheDocument()
    expect(puts(log).map((r) => r.body)).toEqual([
      { registrationCap: 0, expirationDate: null, tags: ['compliance', 'safety'] },
    ])
    expect(screen.queryByRole('form', { name: 'Edit dispatch' })).not.toBeInTheDocument()
    await waitFor(() => expect(card().getByText('No expiry date')).toBeInTheDocument())
    expect(card().getByText('Unlimited')).toBeInTheDocument()
    expect(card().getByText('compliance')).toBeInTheDocument()
  })

  it('keeps the form and the shown values when saving fails', async () => {
    signInAs('admin')
    useStoredDispatch()
    providerRefuses()
    const { user } = renderApp('/dispatches/d-1')

    await user.click(await screen.findByRole('button', { name: 'Edit Dispatch' }))
    const form = within(screen.getByRole('form', { name: 'Edit dispatch' }))
    await user.clear(form.getByLabelText('Notes'))
    await user.type(form.getByLabelText('Notes'), 'Changed')
    await user.click(form.getByRole('button', { name: 'Save Changes' }))

    expect(await screen.findByRole('alert')).toHaveTextContent(PROVIDER_ERROR)
    expect(form.getByLabelText('Notes')).toHaveValue('Changed')
    expect(card().getByText('Renewal due in December.')).toBeInTheDocument()
  })

  it('refuses a negative cap without calling the server', async () => {
    signInAs('admin')
    useStoredDispatch()
    const log = recordRequests()
    const { user } = renderApp('/dispatches/d-1')

    await user.click(await screen.findByRole('button', { name: 'Edit Dispatch' }))
    const form = within(screen.getByRole('form', { name: 'Edit dispatch' }))
    await user.clear(form.getByLabelText('Registration cap'))
    await user.type(form.getByLabelText('Registration cap'), '-5')
    await user.click(form.getByRole('button', { name: 'Save Changes' }))

    expect(form.getByRole('alert')).toHaveTextContent('Registration cap must be a whole number from 0 to 10,000,000.')
    expect(puts(log)).toEqual([])
  })
})
