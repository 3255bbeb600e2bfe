import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Renewal } from '@portal/shared'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, renderApp, signInAs } from '@/testing/test-utils'

beforeAll(preloadRoutes)

const renewal = (over: Partial<Renewal> = {}): Renewal => ({
  id: '11111111-1111-4111-8111-111111111111',
  dispatchId: 'd-1',
  courseTitle: 'Fire Safety',
  companyId: 'company-1',
  runOn: '2031-01-15',
  registrationCap: 200,
  expirationDate: '2032-01-15',
  resetCount: true,
  rolloverMonths: null,
  source: 'schedule',
  status: 'scheduled',
  attempts: 0,
  lastError: null,
  scheduledBy: 'Ada Admin',
  createdAt: '2030-12-01T10:00:00.000Z',
  finishedAt: null,
  ...over,
})

describe('company detail: upcoming renewals', () => {
  it('lists the renewals with their changes and failure reasons, and cancels a scheduled one', async () => {
    signInAs('admin')
    let list = [
      renewal(),
      renewal({
        id: '22222222-2222-4222-8222-222222222222',
        courseTitle: 'First Aid',
        status: 'failed',
        lastError: 'The dispatch was removed from SCORM Cloud.',
      }),
    ]
    const cancelled: string[] = []
    server.use(
      http.get('/api/dispatches/renewals', () => HttpResponse.json({ renewals: list })),
      http.delete<{ id: string }>('/api/dispatches/renewals/:id', ({ params }) => {
        cancelled.push(params.id)
        list = list.map((r) => (r.id === params.id ? { ...r, status: 'cancelled' } : r))
        return HttpResponse.json(list.find((r) => r.id === params.id))
      }),
    )
    const { user } = renderApp('/admin/companies/company-1')
    const section = await screen.findByRole('region', { name: 'Upcoming renewals' })
    const fire = (await within(section).findByRole('cell', { name: 'Fire Safety' })).closest('tr')!
    expect(fire).toHaveTextContent('2031-01-15')
    expect(fire).toHaveTextContent('Cap: 200, Expiry: 2032-01-15, Counter reset')
    const aid = within(section).getByRole('cell', { name: 'First Aid' }).closest('tr')!
    expect(aid).toHaveTextContent('The dispatch was removed from SCORM Cloud.')
    expect(within(aid).queryByRole('button', { name: /Cancel/ })).not.toBeInTheDocument()

    await user.click(within(fire).getByRole('button', { name: 'Cancel renewal of Fire Safety' }))
    const dialog = screen.getByRole('alertdialog', { name: 'Cancel this renewal?' })
    await user.click(within(dialog).getByRole('button', { name: 'Cancel renewal' }))
    await waitFor(() => expect(cancelled).toEqual([renewal().id]))
    expect(await within(section).findByText('Renewal cancelled.')).toBeInTheDocument()
    await waitFor(() => expect(within(fire).getByText('cancelled')).toBeInTheDocument())
  })

  it("shows the server's refusal in the schedule dialog and keeps it open", async () => {
    signInAs('admin')
    const sent: unknown[] = []
    server.use(
      http.post('/api/dispatches/renewals', async ({ request }) => {
        sent.push(await request.json())
        return HttpResponse.json(
          { code: 'RULE_VIOLATION', message: 'The renewal date must be today or later.' },
          { status: 400 },
        )
      }),
    )
    const { user } = renderApp('/admin/companies/company-1')
    const section = await screen.findByRole('region', { name: 'Upcoming renewals' })
    await user.click(within(section).getByRole('button', { name: 'Schedule renewal' }))
    const dialog = screen.getByRole('dialog', { name: 'Schedule renewal' })
    await user.type(within(dialog).getByLabelText('New cap'), '300')
    await user.click(within(dialog).getByRole('button', { name: 'Schedule renewal' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The renewal date must be today or later.')
    expect(sent).toEqual([expect.objectContaining({ companyId: 'company-1', registrationCap: 300 })])
  })

  it('is not shown to sales, who cannot edit dispatches', async () => {
    signInAs('sales')
    renderApp('/admin/companies/company-1')
    await screen.findByRole('heading', { level: 1 })
    expect(screen.queryByRole('region', { name: 'Upcoming renewals' })).not.toBeInTheDocument()
  })
})
