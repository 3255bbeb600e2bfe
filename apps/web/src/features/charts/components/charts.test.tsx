import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { makeDashboardCharts } from '@/testing/mocks/handlers/charts'
import { server } from '@/testing/mocks/server'
import { renderApp, signInAs, preloadRoutes } from '@/testing/test-utils'
import { CHART_HEIGHT } from './chart-palette'

const region = async (name: string) => within(await screen.findByRole('region', { name }))

// The first visit compiles the lazy route modules, which can outlast findBy's 1 s timeout.
beforeAll(preloadRoutes)

describe('charts', () => {
  it('shows the dispatch charts, and their figures as a table on "Show as table"', async () => {
    signInAs('admin')
    const { user } = renderApp('/dispatches/d-1')
    const weeks = await region('Completions per week')
    const toggle = await weeks.findByRole('button', { name: 'Show as table' })
    expect(toggle).toHaveAttribute('aria-pressed', 'false')
    expect(await weeks.findByRole('img', { name: /Completions per week: chart/ })).toBeInTheDocument()
    await user.click(toggle)
    expect(weeks.getByRole('button', { name: 'Show as chart' })).toHaveAttribute('aria-pressed', 'true')
    const table = weeks.getByRole('table', { name: 'Completions per week' })
    const rows = within(table).getAllByRole('row')
    expect(rows).toHaveLength(27) // header + 26 weeks
    expect(rows.at(-1)).toHaveTextContent('Jun 29' + '4')

    const status = await region('Progress and results')
    await user.click(await status.findByRole('button', { name: 'Show as table' }))
    const statusRows = within(status.getByRole('table'))
      .getAllByRole('row')
      .map((r) => r.textContent)
    expect(statusRows).toEqual([
      'StatusRegistrations',
      'Completed6',
      'Incomplete3',
      'Not started1',
      'Passed5',
      'Failed1',
    ])
  })

  it('asks the dashboard charts for the list’s filters, and shows staff the dispatches nearest their cap', async () => {
    signInAs('sales')
    const asked: string[] = []
    server.use(
      http.get('/api/reports/charts/dashboard', ({ request }) => {
        asked.push(new URL(request.url).search)
        return HttpResponse.json(makeDashboardCharts())
      }),
    )
    renderApp('/dashboard?search=Acme&status=enabled')
    const nearest = await region('Nearest their cap')
    expect(await nearest.findByRole('link', { name: 'Acme Learning · Workplace Safety Basics' })).toHaveAttribute(
      'href',
      '/dispatches/d-1',
    )
    expect(nearest.getByText('95 / 100 (95%)')).toBeInTheDocument()
    expect(nearest.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '95')
    await waitFor(() => expect(asked).toContain('?search=Acme&status=enabled'))
    expect(screen.queryByRole('region', { name: 'Usage trend' })).not.toBeInTheDocument()
  })

  it('shows a client its usage trend, with its figures as a table', async () => {
    signInAs('client')
    server.use(
      http.get('/api/reports/charts/dashboard', () =>
        HttpResponse.json(makeDashboardCharts({ nearestCap: undefined })),
      ),
    )
    const { user } = renderApp('/dashboard')
    const trend = await region('Usage trend')
    expect(await trend.findByText(/42 of 100 used \(42%\)/)).toBeInTheDocument()
    await user.click(await trend.findByRole('button', { name: 'Show as table' }))
    const rows = within(trend.getByRole('table')).getAllByRole('row')
    expect(rows[1]).toHaveTextContent('Jan 2026100')
    expect(rows.at(-1)).toHaveTextContent('Dec 2026298')
    expect(screen.queryByRole('region', { name: 'Nearest their cap' })).not.toBeInTheDocument()
  })

  it('keeps a loading chart’s height, so the list below does not move when the chart appears', async () => {
    signInAs('client')
    let answer: () => void = () => {}
    const answered = new Promise<void>((resolve) => (answer = resolve))
    server.use(
      http.get('/api/reports/charts/dashboard', async () => {
        await answered
        return HttpResponse.json(makeDashboardCharts({ nearestCap: undefined }))
      }),
    )
    const { user } = renderApp('/dashboard')
    const trend = await region('Usage trend')
    const loading = await trend.findByRole('status')
    expect(loading).toHaveTextContent('Loading usage trend...')
    const body = loading.parentElement!
    expect(body).toHaveStyle({ minHeight: `${CHART_HEIGHT}px` })
    answer()
    expect(await trend.findByRole('img', { name: /Usage trend: chart/ })).toBeInTheDocument()
    expect(body).toHaveStyle({ minHeight: `${CHART_HEIGHT}px` })
    // As a table, the figures decide the height.
    await user.click(trend.getByRole('button', { name: 'Show as table' }))
    expect(body.style.minHeight).toBe('')
  })

  it('has empty and error states', async () => {
    signInAs('admin')
    server.use(
      http.get('/api/reports/charts/dashboard', () =>
        HttpResponse.json(
          makeDashboardCharts({
            months: makeDashboardCharts().months.map((m) => ({ ...m, registrations: 0 })),
            nearestCap: [],
          }),
        ),
      ),
      http.get('/api/reports/charts/dispatch/:id', () =>
        HttpResponse.json({ code: 'INTERNAL', message: 'Database unavailable' }, { status: 500 }),
      ),
    )
    renderApp('/dashboard')
    const months = await region('Registrations per month')
    expect(await months.findByText('No registrations in the last 12 months.')).toBeInTheDocument()
    expect(months.queryByRole('button', { name: 'Show as table' })).not.toBeInTheDocument()
    expect((await region('Nearest their cap')).getByText('No capped dispatches.')).toBeInTheDocument()
  })

  it('shows an error with Refresh Data when the dispatch charts fail', async () => {
    signInAs('admin')
    server.use(
      http.get('/api/reports/charts/dispatch/:id', () =>
        HttpResponse.json({ code: 'INTERNAL', message: 'Database unavailable' }, { status: 500 }),
      ),
    )
    renderApp('/dispatches/d-1')
    const weeks = await region('Completions per week')
    expect(await weeks.findByRole('alert')).toHaveTextContent('Could not load the chart: Database unavailable')
    expect(weeks.getByRole('button', { name: 'Refresh Data' })).toBeInTheDocument()
  })
})
