import { formatDateTime } from '@portal/shared'
import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { makeReport, makeRegistration } from '@/testing/mocks/handlers/reports'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, renderApp, signInAs } from '@/testing/test-utils'

const REPORT = '/api/reports/dispatch/:id'

/** The query strings of every report request the app sends. */
function reportRequests(): Array<Record<string, string>> {
  const seen: Array<Record<string, string>> = []
  const listener = ({ request }: { request: Request }) => {
    const url = new URL(request.url)
    if (url.pathname.startsWith('/api/reports/dispatch/')) seen.push(Object.fromEntries(url.searchParams))
  }
  server.events.on('request:start', listener)
  onTestFinished(() => server.events.removeListener('request:start', listener))
  return seen
}

function answerReport(overrides: Parameters<typeof makeReport>[2]) {
  server.use(
    http.get<{ id: string }>(REPORT, ({ request, params }) =>
      HttpResponse.json(makeReport(request, params.id, overrides)),
    ),
  )
}

async function openReport() {
  signInAs('client')
  const seen = reportRequests()
  const view = renderApp('/dispatches/d-1')
  const section = await screen.findByRole('region', { name: 'Completion Report' })
  await within(section).findByRole('table', { name: 'Learner registrations' })
  return { ...view, seen, section: within(section) }
}

const rowOf = (name: string) => screen.getByRole('rowheader', { name: new RegExp(name) }).closest('tr')!
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent)

beforeAll(preloadRoutes)

describe('completion report', () => {
  it('lists learners with badges, score, time and last access', async () => {
    const { seen, section } = await openReport()
    expect(seen[0]).toEqual({ page: '1', pageSize: '100' })
    expect(section.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Learner',
      'Completion',
      'Score',
      'Time',
      'Last Access',
    ])
    expect(rowOf('Grace Hopper')).toHaveTextContent('grace.hopper@acme.test')
    expect(cells(rowOf('Grace Hopper'))).toEqual([
      'CompletedPassed',
      '85%',
      '1h 2m 3s',
      formatDateTime('2026-03-05T14:30:00.000Z'),
    ])
    expect(cells(rowOf('Alan Turing'))).toEqual(['IncompleteFailed', '40%', '2m 5s', expect.any(String)])
    expect(cells(rowOf('Ada Lovelace'))).toEqual(['Not StartedUnknown', '-', '0s', 'Never accessed'])
    expect(within(rowOf('Grace Hopper')).getByText('Passed')).toHaveClass('bg-green-100')
    expect(within(rowOf('Alan Turing')).getByText('Failed')).toHaveClass('bg-red-100')
    expect(within(rowOf('Ada Lovelace')).getByText('Unknown')).toHaveClass('bg-slate-100')
    expect(section.getByText('Showing 1-3 of 3 records')).toHaveTextContent('Showing 1-3 of 3 records · 3 learners')
  })

  it('shows N/A for an unparseable last access date', async () => {
    answerReport({ registrations: [makeRegistration({ lastAccessDate: 'yesterday-ish' })] })
    await openReport()
    expect(cells(rowOf('Grace Hopper'))[3]).toBe('N/A')
  })

  it('counts distinct learners next to the records', async () => {
    answerReport({ totalItems: 250, distinctLearners: 180 })
    const { section } = await openReport()
    expect(section.getByText(/^Showing/)).toHaveTextContent('Showing 1-100 of 250 records · 180 learners')
  })

  it('shows a capped search total as "1,000+" without a learner count', async () => {
    answerReport({ totalItems: 1000, distinctLearners: 1000, totalCapped: true })
    const { section } = await openReport()
    expect(section.getByText(/^Showing/)).toHaveTextContent(/^Showing 1-100 of 1000\+ records$/)
  })

  it('applies the search on Enter, back on page 1', async () => {
    answerReport({ totalItems: 1000 })
    const { user, seen, section } = await openReport()
    await user.click(section.getByRole('button', { name: 'Page 2' }))
    await waitFor(() => expect(seen.at(-1)).toEqual({ page: '2', pageSize: '100' }))

    const search = section.getByPlaceholderText('Search learners...')
    await user.type(search, 'grace')
    expect(seen.some((q) => 'search' in q)).toBe(false)
    await user.keyboard('{Enter}')
    await waitFor(() => expect(seen.at(-1)).toEqual({ page: '1', pageSize: '100', search: 'grace' }))
  })

  it('applies status and dates with Apply Filters, and Clear Filters removes them', async () => {
    // The answer echoes the status it was asked for, so the rows show which query they answer.
    server.use(
      http.get<{ id: string }>(REPORT, ({ request, params }) => {
        const status = new URL(request.url).searchParams.get('status') ?? 'any'
        const registrations = [makeRegistration({ learnerFirstName: 'Status', learnerLastName: status })]
        return HttpResponse.json(makeReport(request, params.id, { registrations }))
      }),
    )
    const { user, seen, section } = await openReport()
    expect(section.queryByRole('button', { name: 'Clear Filters' })).not.toBeInTheDocument()
    const status = section.getByRole('combobox', { name: 'Status' })
    expect([...status.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'All Statuses',
      'Completed',
      'Incomplete',
      'Not Started',
    ])

    await user.selectOptions(status, 'Not Started')
    await user.type(section.getByLabelText('Last Access From'), '2026-01-01')
    await user.type(section.getByLabelText('Last Access To'), '2026-03-31')
    expect(seen).toHaveLength(1) // nothing applies before the button
    await user.click(section.getByRole('button', { name: 'Apply Filters' }))
    await waitFor(() =>
      expect(seen.at(-1)).toEqual({
        page: '1',
        pageSize: '100',
        status: 'not attempted',
        startDate: '2026-01-01',
        endDate: '2026-03-31',
      }),
    )

    expect(await section.findByRole('rowheader', { name: /Status not attempted/ })).toBeInTheDocument()

    await user.click(section.getByRole('button', { name: 'Clear Filters' }))
    expect(await section.findByRole('rowheader', { name: /Status any/ })).toBeInTheDocument()
    expect(status).toHaveValue('')
    expect(section.getByLabelText('Last Access From')).toHaveValue('')
    expect(section.queryByRole('button', { name: 'Clear Filters' })).not.toBeInTheDocument()
  })

  it('keeps the applied filters, page and size in the URL, and opens from it', async () => {
    answerReport({ totalItems: 1000 })
    signInAs('client')
    const seen = reportRequests()
    const { user, router } = renderApp(
      '/dispatches/d-1?page=3&pageSize=25&search=grace&status=completed&startDate=2026-01-01&endDate=2026-03-31',
    )
    const section = within(await screen.findByRole('region', { name: 'Completion Report' }))
    await section.findByRole('table', { name: 'Learner registrations' })
    expect(seen[0]).toEqual({
      page: '3',
      pageSize: '25',
      search: 'grace',
      status: 'completed',
      startDate: '2026-01-01',
      endDate: '2026-03-31',
    })
    expect(section.getByPlaceholderText('Search learners...')).toHaveValue('grace')
    expect(section.getByRole('combobox', { name: 'Status' })).toHaveValue('completed')
    expect(section.getByLabelText('Last Access To')).toHaveValue('2026-03-31')
    expect(section.getByRole('combobox', { name: 'Records per page' })).toHaveValue('25')

    // A new filter goes back to page 1 and replaces the old ones in the URL.
    await user.selectOptions(section.getByRole('combobox', { name: 'Status' }), 'Incomplete')
    await user.click(section.getByRole('button', { name: 'Apply Filters' }))
    await waitFor(() => expect(seen.at(-1)).toMatchObject({ page: '1', status: 'incomplete' }))
    const params = new URLSearchParams(router.state.location.search)
    expect(Object.fromEntries(params)).toEqual({
      pageSize: '25',
      search: 'grace',
      status: 'incomplete',
      startDate: '2026-01-01',
      endDate: '2026-03-31',
    })

    // Back shows the earlier filters and page again, in the fields too (answered from the cache).
    await router.navigate(-1)
    await waitFor(() => expect(section.getByRole('combobox', { name: 'Status' })).toHaveValue('completed'))
    expect(section.getByText(/^Showing/)).toHaveTextContent('Showing 51-75 of 1000 records')
  })

  it('reads a link with unknown values or a window that ends before it starts as no filter', async () => {
    signInAs('client')
    const seen = reportRequests()
    renderApp('/dispatches/d-1?page=x&pageSize=7&status=done&startDate=2026-03-01&endDate=2026-02-01')
    const section = within(await screen.findByRole('region', { name: 'Completion Report' }))
    await section.findByRole('table', { name: 'Learner registrations' })
    expect(seen[0]).toEqual({ page: '1', pageSize: '100', startDate: '2026-03-01' })
  })

  it('refuses a To date before the From date', async () => {
    const { user, seen, section } = await openReport()
    await user.type(section.getByLabelText('Last Access From'), '2026-03-01')
    await user.type(section.getByLabelText('Last Access To'), '2026-02-01')
    await user.click(section.getByRole('button', { name: 'Apply Filters' }))
    expect(section.getByRole('alert')).toHaveTextContent('Last Access To cannot be before Last Access From.')
    expect(seen).toHaveLength(1)
  })

  it('changes the page size (10, 25, 50, 100) back on page 1', async () => {
    answerReport({ totalItems: 1000 })
    const { user, seen, section } = await openReport()
    await user.click(section.getByRole('button', { name: 'Page 2' }))
    await waitFor(() => expect(seen.at(-1)).toMatchObject({ page: '2' }))
    const size = section.getByRole('combobox', { name: 'Records per page' })
    expect([...size.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['10', '25', '50', '100'])
    await user.selectOptions(size, '25')
    await waitFor(() => expect(seen.at(-1)).toEqual({ page: '1', pageSize: '25' }))
  })

  it('paginates with the first and last pages, neighbours and ... for gaps', async () => {
    answerReport({ totalItems: 1000 })
    const { user, section } = await openReport()
    const pages = () => within(section.getByRole('navigation', { name: 'Report pages' }))
    const labels = () =>
      pages()
        .getAllByRole('listitem')
        .map((li) => li.textContent)

    expect(labels()).toEqual(['Previous', '1', '2', '...', '10', 'Next'])
    expect(pages().getByRole('button', { name: 'Previous' })).toBeDisabled()
    await user.click(pages().getByRole('button', { name: 'Page 10' }))
    await waitFor(() => expect(labels()).toEqual(['Previous', '1', '...', '9', '10', 'Next']))
    expect(pages().getByRole('button', { name: 'Next' })).toBeDisabled()
    await user.click(pages().getByRole('button', { name: 'Page 9' }))
    await waitFor(() => expect(labels()).toEqual(['Previous', '1', '...', '8', '9', '10', 'Next']))
    await user.click(pages().getByRole('button', { name: 'Previous' }))
    await waitFor(() => expect(labels()).toEqual(['Previous', '1', '...', '7', '8', '9', '10', 'Next']))
    expect(pages().getByRole('button', { name: 'Page 8' })).toHaveAttribute('aria-current', 'page')
    expect(section.getByText(/^Showing/)).toHaveTextContent('Showing 701-800 of 1000 records')
  })

  it('shows the empty state', async () => {
    answerReport({ registrations: [], totalItems: 0, distinctLearners: 0 })
    signInAs('client')
    renderApp('/dispatches/d-1')
    expect(await screen.findByText('No registrations found')).toBeInTheDocument()
    expect(screen.queryByText(/^Showing/)).not.toBeInTheDocument()
  })

  it.each([
    [{ message: 'Report store offline' }, 'Error: Error fetching registrations: Report store offline'],
    [{}, 'Error: Error fetching registrations: Request failed with status 500'],
  ])('shows the error text of docs/product-rules.md §8 (%j)', async (body, text) => {
    server.use(http.get(REPORT, () => HttpResponse.json(body, { status: 500 })))
    signInAs('client')
    renderApp('/dispatches/d-1')
    const section = within(await screen.findByRole('region', { name: 'Completion Report' }))
    expect(await section.findByRole('alert')).toHaveTextContent(text)
    expect(section.getByRole('button', { name: 'Refresh Data' })).toBeInTheDocument()
  })
})
