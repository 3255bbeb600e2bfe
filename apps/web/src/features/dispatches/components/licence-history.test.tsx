import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { makeHistoryEntry } from '@/testing/mocks/handlers/dispatches'
import { server } from '@/testing/mocks/server'
import { renderApp, signInAs, preloadRoutes } from '@/testing/test-utils'

beforeAll(preloadRoutes)

const HISTORY = '/api/dispatches/:id/history'

describe('licence history on the dispatch screen', () => {
  it('lists the changes newest first with who made them and the registrations before and after', async () => {
    server.use(
      http.get(HISTORY, () =>
        HttpResponse.json({
          entries: [
            makeHistoryEntry({
              id: 3,
              kind: 'cap',
              oldValue: '50',
              newValue: '80',
              countBefore: 12,
              countAfter: 12,
              capBefore: 50,
              capAfter: 80,
              source: 'portal',
              actor: { kind: 'user', id: 'u1', label: 'Ada Admin', email: 'ada@example.com' },
            }),
            makeHistoryEntry({
              id: 2,
              kind: 'count_reset',
              oldValue: '12',
              newValue: '0',
              countBefore: 12,
              countAfter: 0,
            }),
          ],
          nextBefore: 2,
        }),
      ),
    )
    signInAs('client')
    renderApp('/dispatches/d-1')
    const list = await screen.findByRole('list', { name: 'Licence changes, newest first' })
    const items = within(list).getAllByRole('listitem')
    expect(items[0]).toHaveTextContent('Licence cap changed: 50 → 80')
    expect(items[0]).toHaveTextContent('By Ada Admin (ada@example.com)')
    expect(items[1]).toHaveTextContent('Registration counter reset: 12 → 0')
    expect(items[1]).toHaveTextContent('Found upstream by the sync')
    expect(items[1]).toHaveTextContent('Registrations: 12 → 0')
  })

  it('reads older changes with "Show older changes" and hides it after the last page', async () => {
    server.use(
      http.get(HISTORY, ({ request }) => {
        const before = new URL(request.url).searchParams.get('before')
        return HttpResponse.json(
          before === null
            ? {
                entries: [makeHistoryEntry({ id: 5, kind: 'enabled', oldValue: 'true', newValue: 'false' })],
                nextBefore: 5,
              }
            : { entries: [makeHistoryEntry({ id: 1 })], nextBefore: null },
        )
      }),
    )
    signInAs('admin')
    renderApp('/dispatches/d-1')
    const more = await screen.findByRole('button', { name: 'Show older changes' })
    expect(screen.getByText('Enabled state changed: Enabled → Disabled')).toBeInTheDocument()
    await userEvent.click(more)
    expect(await screen.findByText('Dispatch recorded (cap 50)')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Show older changes' })).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: /Export history/ })).toBeInTheDocument()
  })

  it('says so when nothing is recorded yet', async () => {
    server.use(http.get(HISTORY, () => HttpResponse.json({ entries: [], nextBefore: null })))
    signInAs('sales')
    renderApp('/dispatches/d-1')
    expect(await screen.findByText('No licence changes recorded yet.')).toBeInTheDocument()
  })
})
