import type { Statement } from '@portal/shared'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { server } from '@/testing/mocks/server'
import { renderApp, signInAs, preloadRoutes } from '@/testing/test-utils'
import { lastMonth } from './statements-screen'

beforeAll(preloadRoutes)

const statement = (period: string): Statement => ({
  companyId: 'company-1',
  companyName: 'Acme Learning',
  period,
  start: '2026-10-01T00:00:00.000Z',
  end: '2026-11-01T00:00:00.000Z',
  lines: [
    {
      dispatchId: 'd-1',
      courseTitle: 'Workplace Safety',
      registrationsAdded: 4,
      learnersLaunched: 3,
      completions: 2,
      capAtEnd: 10,
      countAtEnd: 6,
      remainingAtEnd: 4,
    },
    {
      dispatchId: 'd-2',
      courseTitle: 'Hygiene',
      registrationsAdded: 1,
      learnersLaunched: 1,
      completions: 0,
      capAtEnd: null,
      countAtEnd: 9,
      remainingAtEnd: null,
    },
  ],
  total: { registrationsAdded: 5, learnersLaunched: 4, completions: 2, remainingAtEnd: 4, unlimitedDispatches: 1 },
})

describe('usage statements screen', () => {
  it("shows a client its own company's statement of last month, per dispatch and in total", async () => {
    const asked: string[] = []
    server.use(
      http.get('/api/statements/:id', ({ params, request }) => {
        asked.push(`${String(params.id)}?${new URL(request.url).searchParams}`)
        return HttpResponse.json(statement(new URL(request.url).searchParams.get('month') ?? ''))
      }),
    )
    signInAs('client', { companyId: 'company-1' })
    renderApp('/statements')
    const table = await screen.findByRole('table', { name: `Usage statement ${lastMonth()} of Acme Learning` })
    expect(asked[0]).toBe(`company-1?month=${lastMonth()}`)
    const rows = within(table).getAllByRole('row')
    expect(rows[1]).toHaveTextContent('Workplace Safety4324 (6 of 10 used)')
    expect(rows[2]).toHaveTextContent('Hygiene110Unlimited')
    expect(rows[3]).toHaveTextContent('Total5424 + 1 unlimited')
    expect(screen.getByLabelText('Month (yyyy-MM)')).toHaveValue(lastMonth())
    expect(screen.queryByLabelText('Company')).not.toBeInTheDocument()
  })

  it("shows the server's message for a refused month, and asks staff to pick a company first", async () => {
    server.use(
      http.get('/api/statements/:id', () =>
        HttpResponse.json(
          {
            code: 'VALIDATION_FAILED',
            message: 'A statement covers a past or the current month; this one has not started yet.',
          },
          { status: 400 },
        ),
      ),
    )
    signInAs('sales')
    renderApp('/statements?month=2099-01')
    expect(await screen.findByRole('heading', { name: 'Choose a company' })).toBeInTheDocument()
    const picker = await screen.findByLabelText('Company')
    await within(picker).findByRole('option', { name: 'Acme Learning' })
    await userEvent.selectOptions(picker, 'company-1')
    expect(
      await screen.findByText(/A statement covers a past or the current month; this one has not started yet\./),
    ).toBeInTheDocument()
  })
})
