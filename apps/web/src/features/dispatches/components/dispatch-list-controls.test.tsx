import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import { makeDispatchList } from '@/testing/mocks/handlers/dispatches'
import { server } from '@/testing/mocks/server'
import {
  advance,
  pollUntil,
  preloadRoutes,
  recordRequests,
  renderApp,
  requestsTo,
  signInAs,
} from '@/testing/test-utils'

const LIST = '/api/dispatches'

function listRequests(): URLSearchParams[] {
  const seen: URLSearchParams[] = []
  const listener = ({ request }: { request: Request }) => {
    const url = new URL(request.url)
    if (url.pathname === LIST) seen.push(url.searchParams)
  }
  server.events.on('request:start', listener)
  onTestFinished(() => server.events.removeListener('request:start', listener))
  return seen
}

const lastQuery = (seen: URLSearchParams[]) => Object.fromEntries(seen.at(-1) ?? [])

function answerList(overrides: Parameters<typeof makeDispatchList>[1]) {
  server.use(http.get(LIST, ({ request }) => HttpResponse.json(makeDispatchList(request, overrides))))
}

const actions = (log: ReturnType<typeof recordRequests>) =>
  requestsTo(log, '/api/logs/action').map((r) => r.body as { action: string; details?: Record<string, unknown> })

async function openOnPage3() {
  signInAs('admin')
  answerList({ totalItems: 500 })
  const seen = listRequests()
  const log = recordRequests()
  const view = renderApp('/dashboard?page=3')
  await screen.findByRole('table', { name: 'Dispatches' })
  expect(lastQuery(seen)).toEqual({ page: '3', pageSize: '50', status: 'all', sort: 'client', order: 'asc' })
  return { ...view, seen, log }
}

afterEach(() => {
  window.innerWidth = 1024
})

// The first visit compiles the lazy route modules, which can outlast findBy's 1 s timeout.
beforeAll(preloadRoutes)

describe('dispatch list filters, sorting and pages', () => {
  it('searches after a pause in typing, back on page 1, and records the search', async () => {
    const { user, seen, log, router } = await openOnPage3()
    await user.type(screen.getByRole('searchbox', { name: 'Search dispatches' }), 'safety')
    expect(screen.getByPlaceholderText('Search dispatches...')).toHaveValue('safety')

    await waitFor(() => expect(lastQuery(seen)).toMatchObject({ search: 'safety', page: '1' }))
    expect(seen.filter((q) => q.has('search'))).toHaveLength(1) // debounced: one request, not six
    expect(router.state.location.search).toBe('?search=safety')
    await waitFor(() =>
      expect(actions(log)).toContainEqual({ action: 'DISPATCH_SEARCH_PERFORMED', details: { search: 'safety' } }),
    )
  })

  it('filters by status and changes the page size, each time back on page 1', async () => {
    const { user, seen, log } = await openOnPage3()
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Disabled')
    await waitFor(() => expect(lastQuery(seen)).toMatchObject({ status: 'disabled', page: '1' }))

    await user.click(screen.getByRole('button', { name: 'Page 3' }))
    await waitFor(() => expect(lastQuery(seen)).toMatchObject({ status: 'disabled', page: '3' }))
    await user.selectOptions(screen.getByRole('combobox', { name: 'Items per page' }), '25')
    await waitFor(() => expect(lastQuery(seen)).toMatchObject({ status: 'disabled', pageSize: '25', page: '1' }))

    expect(screen.getByRole('combobox', { name: 'Items per page' }).querySelectorAll('option').length).toBe(5)
    await waitFor(() =>
      expect(actions(log)).toEqual(
        expect.arrayContaining([
          { action: 'DISPATCH_STATUS_FILTER_CHANGED', details: { status: 'disabled' } },
          { action: 'DISPATCH_PAGINATION_CHANGED', details: { page: 3 } },
          { action: 'DISPATCH_ITEMS_PER_PAGE_CHANGED', details: { pageSize: 25 } },
        ]),
      ),
    )
  })

  it('keeps filters in the URL: back restores the previous ones', async () => {
    const { user, seen, router } = await openOnPage3()
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Enabled')
    await waitFor(() => expect(router.state.location.search).toBe('?status=enabled'))

    await waitFor(() => expect(lastQuery(seen)).toMatchObject({ status: 'enabled', page: '1' }))

    await router.navigate(-1)
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('all'))
    expect(router.state.location.search).toBe('?page=3')
    expect(screen.getByText('Showing 101 to 150 of 500 dispatches')).toBeInTheDocument()
  })

  it('sorts by a header: ascending first, then descending, with aria-sort and page 1', async () => {
    const { user, seen } = await openOnPage3()
    const header = (name: string) => screen.getByRole('columnheader', { name })
    expect(header('Client')).toHaveAttribute('aria-sort', 'ascending')
    expect(header('Course')).toHaveAttribute('aria-sort', 'none')

    await user.click(within(header('Course')).getByRole('button'))
    await waitFor(() => expect(lastQuery(seen)).toMatchObject({ sort: 'course', order: 'asc', page: '1' }))
    expect(header('Course')).toHaveAttribute('aria-sort', 'ascending')
    expect(header('Client')).toHaveAttribute('aria-sort', 'none')

    within(header('Course')).getByRole('button').focus()
    await user.keyboard('{Enter}')
    await waitFor(() => expect(lastQuery(seen)).toMatchObject({ sort: 'course', order: 'desc' }))
    expect(header('Course')).toHaveAttribute('aria-sort', 'descending')
  })

  it('shows a window of 5 page numbers and the Showing text', async () => {
    const { user, seen } = await openOnPage3()
    const pages = () => within(screen.getByRole('navigation', { name: 'Dispatch pages' }))
    expect(screen.getByText('Showing 101 to 150 of 500 dispatches')).toBeInTheDocument()
    expect(
      pages()
        .getAllByRole('button', { name: /^Page/ })
        .map((b) => b.textContent),
    ).toEqual(['1', '2', '3', '4', '5'])
    expect(pages().getByRole('button', { name: 'Page 3' })).toHaveAttribute('aria-current', 'page')

    await user.click(pages().getByRole('button', { name: 'Next' }))
    await waitFor(() => expect(screen.getByText('Showing 151 to 200 of 500 dispatches')).toBeInTheDocument())
    expect(lastQuery(seen)).toMatchObject({ page: '4' })
    expect(
      pages()
        .getAllByRole('button', { name: /^Page/ })
        .map((b) => b.textContent),
    ).toEqual(['2', '3', '4', '5', '6'])
    expect(pages().getByRole('button', { name: 'Previous' })).toBeEnabled()
  })

  it('shows the empty state', async () => {
    signInAs('admin')
    answerList({ dispatches: [], totalItems: 0 })
    renderApp('/dashboard')
    expect(await screen.findByRole('heading', { name: 'No dispatches found' })).toBeInTheDocument()
    expect(screen.getByText('Get started by creating a new dispatch')).toBeInTheDocument()
    expect(screen.queryByText(/^Showing/)).not.toBeInTheDocument()
  })

  it('shows cards instead of the table below 1024 px', async () => {
    window.innerWidth = 800
    signInAs('internal')
    renderApp('/dashboard')
    const list = await screen.findByRole('list', { name: 'Dispatches' })
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
    const cards = within(list).getAllByRole('listitem')
    expect(cards).toHaveLength(3)
    expect(within(cards[1]!).getByRole('heading', { name: 'Data Protection Essentials' })).toBeInTheDocument()
    expect(cards[1]).toHaveTextContent('Client:Globex Training')
    expect(cards[1]).toHaveTextContent('Registrations:7 / ∞')
    expect(within(cards[1]!).getByRole('link', { name: /View Details/ })).toHaveAttribute('href', '/dispatches/d-2')
  })

  it.each([
    [{ message: 'Database unavailable' }, 'Database unavailable'],
    [{}, 'Failed to fetch dispatches'],
  ])('shows the server message first, else the product-rules text (%j)', async (body, text) => {
    signInAs('admin')
    server.use(http.get(LIST, () => HttpResponse.json(body, { status: 500 })))
    renderApp('/dashboard')
    expect(await screen.findByRole('alert')).toHaveTextContent(text)
  })

  it('reloads every 5 minutes while the tab is visible', async () => {
    await preloadRoutes()
    vi.useFakeTimers({ shouldAdvanceTime: true })
    signInAs('admin')
    const seen = listRequests()
    renderApp('/dashboard')
    await pollUntil(() => expect(screen.getByRole('table', { name: 'Dispatches' })).toBeInTheDocument())
    expect(seen).toHaveLength(1)

    await advance(4 * 60_000)
    expect(seen).toHaveLength(1)
    await advance(60_000)
    await pollUntil(() => expect(seen).toHaveLength(2))
  })

  it('does not reload while the tab is hidden', async () => {
    await preloadRoutes()
    vi.useFakeTimers({ shouldAdvanceTime: true })
    signInAs('admin')
    const seen = listRequests()
    renderApp('/dashboard')
    await pollUntil(() => expect(screen.getByRole('table', { name: 'Dispatches' })).toBeInTheDocument())
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true })
    onTestFinished(() => void Reflect.deleteProperty(document, 'visibilityState'))
    document.dispatchEvent(new Event('visibilitychange'))

    await advance(11 * 60_000)
    expect(seen).toHaveLength(1)
  })
})
