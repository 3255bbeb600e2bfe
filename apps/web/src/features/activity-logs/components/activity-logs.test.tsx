import { ACTIVITY_ACTIONS } from '@portal/shared'
import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import { makeLogList } from '@/testing/mocks/handlers/logs'
import { server } from '@/testing/mocks/server'
import {
  advance,
  pollUntil,
  preloadRoutes,
  recordRequests,
  renderApp,
  requestsTo,
  signInAs,
  type RecordedRequest,
} from '@/testing/test-utils'

beforeAll(preloadRoutes)

let clicked: HTMLAnchorElement[] = []
beforeEach(() => {
  clicked = []
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this)
  })
  Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:logs'), revokeObjectURL: vi.fn() })
})
afterEach(() => {
  Reflect.deleteProperty(URL, 'createObjectURL')
  Reflect.deleteProperty(URL, 'revokeObjectURL')
})

/** The query of every GET /api/logs sent (the URL is not in RecordedRequest, so keep our own). */
function logQueries(): URLSearchParams[] {
  const seen: URLSearchParams[] = []
  const listener = ({ request }: { request: Request }) => {
    const url = new URL(request.url)
    if (request.method === 'GET' && url.pathname === '/api/logs') seen.push(url.searchParams)
  }
  server.events.on('request:start', listener)
  onTestFinished(() => server.events.removeListener('request:start', listener))
  return seen
}

const openLogs = async () => {
  signInAs('admin')
  const view = renderApp('/logs')
  await screen.findByRole('table', { name: 'Activity logs' })
  return view
}
const cells = () =>
  within(screen.getByRole('table', { name: 'Activity logs' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    )
const actions = (log: RecordedRequest[]) =>
  requestsTo(log, '/api/logs/action').map((r) => (r.body as { action: string }).action)

describe('Activity Logs (/logs)', () => {
  it('shows the total, the rows as product-rules renders them, and records LOGS_PAGE_VIEWED', async () => {
    const log = recordRequests()
    await openLogs()
    expect(screen.getByRole('heading', { level: 1, name: 'Activity Logs' })).toBeInTheDocument()
    expect(screen.getByText('Total Logs: 123')).toBeInTheDocument()
    const rows = cells()
    expect(rows[0]).toEqual([
      expect.stringMatching(/^2026-03-0[12] \d\d:15:30$/),
      'Amy Adams (amy@example.com)',
      'PAGE_VIEWED',
      expect.stringContaining('Pathname: /courses'),
      '10.0.0.3',
    ])
    // An object reads as labelled values; its JSON stays one click away.
    expect(screen.getByText('{"pathname":"/courses"}').closest('details')).not.toBeNull()
    expect(rows[1]!.slice(1)).toEqual(['System/Unknown', 'COMPANIES_SYNCED', 'N/A', '-'])
    expect(rows[2]).toEqual([
      'Invalid Date',
      'Zed Zimmer (zed@example.com)',
      'HELP_BUTTON_CLICKED',
      'User clicked Need help?',
      '10.0.0.1',
    ])
    expect(screen.getByText('Page 1 of 3 (Total: 123 logs)')).toBeInTheDocument()
    await waitFor(() => expect(actions(log)).toContain('LOGS_PAGE_VIEWED'))
  })

  it('offers All Users sorted by name or email, and All Actions plus the fixed list', async () => {
    await openLogs()
    const users = screen.getByRole('combobox', { name: 'User' })
    await waitFor(() => expect(within(users).getAllByRole('option')).toHaveLength(4))
    expect(
      within(users)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All Users', 'Amy Adams (amy@example.com)', 'bob@example.com', 'Zed Zimmer (zed@example.com)'])
    const options = within(screen.getByRole('combobox', { name: 'Action' })).getAllByRole('option')
    expect(options.map((o) => o.textContent)).toEqual(['All Actions', ...ACTIVITY_ACTIONS])
  })

  it('only logs a failure of the user list to the console', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    server.use(http.get('/api/auth/users', () => HttpResponse.json({}, { status: 500 })))
    await openLogs()
    await waitFor(() => expect(error).toHaveBeenCalled())
    expect(within(screen.getByRole('combobox', { name: 'User' })).getAllByRole('option')).toHaveLength(1)
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('pages with Previous and Next, disabled at the ends, and any filter change goes back to page 1', async () => {
    const queries = logQueries()
    const { user } = await openLogs()
    const nav = within(screen.getByRole('navigation', { name: 'Log pages' }))
    expect(nav.getByRole('button', { name: 'Previous' })).toBeDisabled()
    await user.click(nav.getByRole('button', { name: 'Next' }))
    await user.click(nav.getByRole('button', { name: 'Next' }))
    expect(await screen.findByText('Page 3 of 3 (Total: 123 logs)')).toBeInTheDocument()
    expect(nav.getByRole('button', { name: 'Next' })).toBeDisabled()
    expect(queries.at(-1)!.get('page')).toBe('3')

    await user.selectOptions(screen.getByRole('combobox', { name: 'Action' }), 'LOGOUT')
    await waitFor(() => expect(queries.at(-1)!.get('action')).toBe('LOGOUT'))
    expect(queries.at(-1)!.get('page')).toBe('1')
    expect(queries.at(-1)!.get('limit')).toBe('50')
    expect(queries.at(-1)!.has('userId')).toBe(false) // empty values are left out
    expect(screen.getByText('Page 1 of 3 (Total: 123 logs)')).toBeInTheDocument()

    await user.click(nav.getByRole('button', { name: 'Next' }))
    await user.selectOptions(screen.getByRole('combobox', { name: 'User' }), 'u-zed')
    await waitFor(() => expect(queries.at(-1)!.get('userId')).toBe('u-zed'))
    expect(queries.at(-1)!.get('page')).toBe('1')

    await user.click(nav.getByRole('button', { name: 'Next' }))
    expect(await screen.findByText('Page 2 of 3 (Total: 123 logs)')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Reset Filters' }))
    // Back to the unfiltered first page (served from the 2-minute cache: no new call needed).
    expect(await screen.findByText('Page 1 of 3 (Total: 123 logs)')).toBeInTheDocument()
    expect(screen.getByRole('combobox', { name: 'User' })).toHaveValue('')
    expect(screen.getByRole('combobox', { name: 'Action' })).toHaveValue('')
  })

  it('waits 500 ms after the last keystroke before searching', async () => {
    const queries = logQueries()
    signInAs('admin')
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const { user } = renderApp('/logs')
    await pollUntil(() => expect(screen.getByRole('table', { name: 'Activity logs' })).toBeInTheDocument())
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), '10.0')
    expect(screen.getByRole('searchbox')).toHaveAttribute('placeholder', 'Search details, IP, user...')
    await advance(400)
    expect(queries.some((q) => q.has('searchTerm'))).toBe(false)
    await advance(150)
    await pollUntil(() => expect(queries.at(-1)!.get('searchTerm')).toBe('10.0'))
    expect(queries.filter((q) => q.has('searchTerm'))).toHaveLength(1)
  })

  it('takes typed yyyy-MM-dd dates, shows them so, and sends them as YYYY-MM-DD from page 1', async () => {
    const queries = logQueries()
    const { user } = await openLogs()
    const start = screen.getByRole('textbox', { name: 'Start Date' })
    const end = screen.getByRole('textbox', { name: 'End Date' })
    expect(start).toHaveAttribute('placeholder', 'YYYY-MM-DD')
    await user.click(
      within(screen.getByRole('navigation', { name: 'Log pages' })).getByRole('button', { name: 'Next' }),
    )
    await waitFor(() => expect(queries.at(-1)!.get('page')).toBe('2'))

    await user.type(start, '2026-03-10')
    await waitFor(() => expect(queries.at(-1)!.get('startDate')).toBe('2026-03-10'))
    expect(queries.at(-1)!.get('page')).toBe('1')
    await user.type(end, '2026-03-20')
    await waitFor(() => expect(queries.at(-1)!.get('endDate')).toBe('2026-03-20'))
    expect(queries.at(-1)!.get('startDate')).toBe('2026-03-10')
    await user.tab()
    expect(start).toHaveValue('2026-03-10')
    expect(end).toHaveValue('2026-03-20')

    await user.click(screen.getByRole('button', { name: 'Reset Filters' }))
    expect(start).toHaveValue('')
    expect(end).toHaveValue('')
  })

  it('parses typed dates strictly: other formats and impossible days are not taken', async () => {
    const queries = logQueries()
    const { user } = await openLogs()
    const start = screen.getByRole('textbox', { name: 'Start Date' })
    for (const text of ['03/10/2026', '2026-02-30', '2026-3-10', '10 March 2026']) {
      await user.clear(start)
      await user.type(start, text)
      await user.tab()
      expect(start).toHaveValue('')
    }
    await user.type(start, '2026-02-28')
    await waitFor(() => expect(queries.at(-1)!.get('startDate')).toBe('2026-02-28'))
    expect(queries.every((q) => !q.has('startDate') || q.get('startDate') === '2026-02-28')).toBe(true)
  })

  it('picks a day from the calendar with the keyboard', async () => {
    const queries = logQueries()
    const { user } = await openLogs()
    const end = screen.getByRole('textbox', { name: 'End Date' })
    await user.type(end, '2026-03-20')
    await user.keyboard('{ArrowDown}') // into the calendar, on the selected day
    expect(screen.getByRole('gridcell', { name: /March 20th, 2026/ })).toHaveFocus()
    await user.keyboard('{ArrowRight}{ArrowRight}{Enter}')
    await waitFor(() => expect(queries.at(-1)!.get('endDate')).toBe('2026-03-22'))
    expect(end).toHaveValue('2026-03-22')
  })

  it('keeps the end date from coming before the start date', async () => {
    const queries = logQueries()
    const { user } = await openLogs()
    const start = screen.getByRole('textbox', { name: 'Start Date' })
    const end = screen.getByRole('textbox', { name: 'End Date' })
    await user.type(start, '2026-03-10')
    await user.type(end, '2026-03-20')
    // The end's calendar (open while it has focus) offers no day before the start.
    const endCalendar = within(screen.getByRole('dialog'))
    expect(endCalendar.getByRole('gridcell', { name: /March 9th, 2026/ })).toHaveAttribute('aria-disabled', 'true')
    expect(endCalendar.getByRole('gridcell', { name: /March 10th, 2026/ })).toHaveAttribute('aria-disabled', 'false')
    // And the start's none after the end.
    await user.click(start)
    const startCalendar = within(screen.getByRole('dialog'))
    expect(startCalendar.getByRole('gridcell', { name: /March 21st, 2026/ })).toHaveAttribute('aria-disabled', 'true')
    expect(startCalendar.getByRole('gridcell', { name: /March 20th, 2026/ })).toHaveAttribute('aria-disabled', 'false')
    await waitFor(() => expect(queries.at(-1)!.get('endDate')).toBe('2026-03-20'))

    // A typed end before the start is shown with the error, and is not sent.
    const sent = queries.length
    await user.clear(end)
    await user.type(end, '2026-03-01')
    expect(screen.getByText('End date cannot be before start date.')).toBeInTheDocument()
    expect(end).toHaveAccessibleDescription('End date cannot be before start date.')
    expect(end).toHaveValue('2026-03-01')
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Clear End Date' }))
    expect(end).toHaveValue('')
    expect(screen.queryByText('End date cannot be before start date.')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Clear End Date' })).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Clear Start Date' }))
    expect(start).toHaveValue('')
    expect(queries.slice(sent).every((q) => !q.get('endDate') || q.get('endDate')! >= '2026-03-10')).toBe(true)
  })

  it('says Failed to fetch logs when the list fails', async () => {
    server.use(http.get('/api/logs', () => HttpResponse.json({}, { status: 500 })))
    signInAs('admin')
    renderApp('/logs')
    expect(await screen.findByText('Failed to fetch logs')).toBeInTheDocument()
  })
})

describe('Download CSV', () => {
  it('is busy while downloading (download and reset disabled), then saves the file with the filters', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    const exports: URL[] = []
    server.use(
      http.get('/api/logs/export.csv', async ({ request }) => {
        exports.push(new URL(request.url))
        await gate
        return HttpResponse.text('Timestamp\r\n', { headers: { 'Content-Type': 'text/csv' } })
      }),
    )
    const { user } = await openLogs()
    await user.selectOptions(screen.getByRole('combobox', { name: 'Action' }), 'LOGOUT')
    await user.click(screen.getByRole('button', { name: 'Download CSV' }))
    expect(screen.getByRole('button', { name: 'Downloading...' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Reset Filters' })).toBeDisabled()
    release()
    expect(await screen.findByRole('button', { name: 'Download CSV' })).toBeEnabled()
    expect(screen.getByRole('button', { name: 'Reset Filters' })).toBeEnabled()
    expect(exports[0]!.searchParams.toString()).toBe('action=LOGOUT')
    expect(clicked).toHaveLength(1)
    expect(clicked[0]!.download).toBe('activity_logs_filtered.csv')
  })

  it('alerts instead of downloading when no log matches', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {})
    server.use(
      http.get('/api/logs', ({ request }) =>
        HttpResponse.json(makeLogList(request, { logs: [], totalLogs: 0, totalPages: 0 })),
      ),
    )
    const log = recordRequests()
    signInAs('admin')
    const { user } = renderApp('/logs')
    expect(await screen.findByText('No logs found matching your criteria.')).toBeInTheDocument()
    expect(screen.getByText('Total Logs: 0')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Download CSV' }))
    expect(alert).toHaveBeenCalledWith('No logs found matching the current filters to download')
    expect(requestsTo(log, '/api/logs/export.csv')).toHaveLength(0)
  })

  it.each([
    [HttpResponse.json({ message: 'Invalid date. Use YYYY-MM-DD.' }, { status: 400 }), 'Invalid date. Use YYYY-MM-DD.'],
    [HttpResponse.json({}, { status: 500 }), 'Failed to download logs CSV'],
  ])('shows the error and alerts it (%#)', async (response, message) => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {})
    server.use(http.get('/api/logs/export.csv', () => response.clone()))
    const { user } = await openLogs()
    await user.click(screen.getByRole('button', { name: 'Download CSV' }))
    expect(await screen.findByText(message)).toBeInTheDocument()
    expect(alert).toHaveBeenCalledWith(`Error downloading CSV: ${message}`)
    expect(clicked).toHaveLength(0)
  })
})
