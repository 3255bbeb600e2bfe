import type { BulkRun } from '@portal/shared'
import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { makeDispatchList } from '@/testing/mocks/handlers/dispatches'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, renderApp, signInAs } from '@/testing/test-utils'

// The dashboard loads the bulk bar as a module of its own, after the selection appears; load it
// (and the routes) first, so that on a busy machine the bar is there when the test looks for it.
beforeAll(async () => {
  await Promise.all([preloadRoutes(), import('./bulk-actions')])
})

const RUN = '33333333-3333-4333-8333-333333333333'

describe('dispatch list: bulk actions', () => {
  it('disables the selected dispatches and shows each outcome as the run goes', async () => {
    signInAs('admin')
    const started: unknown[] = []
    let polls = 0
    const item = (dispatchId: string, courseTitle: string, status: string, error: string | null = null) => ({
      dispatchId,
      courseTitle,
      companyName: 'Acme',
      status,
      error,
    })
    server.use(
      http.post('/api/dispatches/bulk', async ({ request }) => {
        started.push(await request.json())
        return HttpResponse.json({ id: RUN, total: 2 }, { status: 202 })
      }),
      http.get('/api/dispatches/bulk/:id', () => {
        polls += 1
        const run: BulkRun =
          polls === 1
            ? {
                id: RUN,
                action: 'disable',
                status: 'running',
                total: 2,
                done: 1,
                failed: 0,
                createdAt: '2030-01-01T00:00:00.000Z',
                finishedAt: null,
                items: [item('d-1', 'One', 'done'), item('d-3', 'Three', 'running')],
              }
            : {
                id: RUN,
                action: 'disable',
                status: 'finished',
                total: 2,
                done: 1,
                failed: 1,
                createdAt: '2030-01-01T00:00:00.000Z',
                finishedAt: '2030-01-01T00:00:05.000Z',
                items: [item('d-1', 'One', 'done'), item('d-3', 'Three', 'failed', 'SCORM Cloud refused it.')],
              }
        return HttpResponse.json(run)
      }),
    )
    const { user } = renderApp('/dashboard')
    const table = await screen.findByRole('table', { name: 'Dispatches' })
    expect(screen.queryByRole('region', { name: 'Selection' })).not.toBeInTheDocument()
    const boxes = within(table).getAllByRole('checkbox', { name: /^Select (?!all)/ })
    await user.click(boxes[0]!)
    await user.click(boxes[2]!)
    const selection = screen.getByRole('region', { name: 'Selection' })
    expect(selection).toHaveTextContent('2 selected')
    await user.selectOptions(await within(selection).findByLabelText('Bulk action'), 'disable')
    await user.click(within(selection).getByRole('button', { name: 'Apply to 2 dispatches' }))

    const progress = await screen.findByRole('dialog', { name: 'Bulk action progress' })
    expect(started).toEqual([{ action: 'disable', dispatchIds: ['d-1', 'd-3'] }])
    await waitFor(
      () => expect(within(progress).getByRole('status')).toHaveTextContent('Finished: 1 of 2 done, 1 failed'),
      {
        timeout: 4_000,
      },
    )
    const outcomes = within(progress).getByRole('list', { name: 'Outcome per dispatch' })
    expect(within(outcomes).getAllByRole('listitem')[1]).toHaveTextContent('failedSCORM Cloud refused it.')
    await user.click(within(progress).getByRole('button', { name: /^Close$/ }))
    expect(screen.queryByRole('region', { name: 'Selection' })).not.toBeInTheDocument()
  })

  it('selects all dispatches matching the filter, sent as the filter, not ids', async () => {
    signInAs('admin')
    const started: unknown[] = []
    server.use(
      http.get('/api/dispatches', ({ request }) => HttpResponse.json(makeDispatchList(request, { totalItems: 120 }))),
      http.post('/api/dispatches/bulk', async ({ request }) => {
        started.push(await request.json())
        return HttpResponse.json(
          { code: 'RULE_VIOLATION', message: 'At most 5,000 dispatches at once.' },
          { status: 400 },
        )
      }),
    )
    const { user } = renderApp('/dashboard?status=enabled')
    const table = await screen.findByRole('table', { name: 'Dispatches' })
    await user.click(within(table).getByRole('checkbox', { name: 'Select all dispatches on this page' }))
    const selection = screen.getByRole('region', { name: 'Selection' })
    await user.click(within(selection).getByRole('button', { name: 'Select all 120 matching this filter' }))
    expect(selection).toHaveTextContent('All 120 dispatches matching this filter are selected.')
    await user.click(within(selection).getByRole('button', { name: 'Apply to 120 dispatches' }))
    expect(await within(selection).findByRole('alert')).toHaveTextContent('At most 5,000 dispatches at once.')
    expect(started).toEqual([{ action: 'disable', filter: { status: 'enabled' } }])
  })

  it('offers the same selection on the narrow layout, a checkbox per card and one for the page', async () => {
    const width = window.innerWidth
    window.innerWidth = 800
    try {
      signInAs('admin')
      const { user } = renderApp('/dashboard')
      const cards = await screen.findByRole('list', { name: 'Dispatches' })
      expect(screen.queryByRole('table')).not.toBeInTheDocument()
      const boxes = within(cards).getAllByRole('checkbox', { name: /^Select / })
      await user.click(boxes[1]!)
      expect(screen.getByRole('region', { name: 'Selection' })).toHaveTextContent('1 selected')
      await user.click(screen.getByRole('checkbox', { name: 'Select all dispatches on this page' }))
      expect(screen.getByRole('region', { name: 'Selection' })).toHaveTextContent(`${boxes.length} selected`)
    } finally {
      window.innerWidth = width
    }
  })

  it("takes no ticks on the previous filter's rows while the new filter's list loads", async () => {
    signInAs('admin')
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    server.use(
      http.get('/api/dispatches', async ({ request }) => {
        if (new URL(request.url).searchParams.get('status') === 'enabled') await held
        return HttpResponse.json(makeDispatchList(request))
      }),
    )
    const { user } = renderApp('/dashboard')
    const table = await screen.findByRole('table', { name: 'Dispatches' })
    await user.selectOptions(screen.getByLabelText('Status'), 'enabled')
    // The old rows stay on screen, marked busy, and none of their boxes can be ticked.
    await waitFor(() => expect(table.closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true'))
    for (const box of within(table).getAllByRole('checkbox')) expect(box).toBeDisabled()
    await user.click(within(table).getAllByRole('checkbox', { name: /^Select (?!all)/ })[0]!)
    expect(screen.queryByRole('region', { name: 'Selection' })).not.toBeInTheDocument()

    release()
    await waitFor(() => expect(table.closest('[aria-busy]')).toHaveAttribute('aria-busy', 'false'))
    const boxes = within(table).getAllByRole('checkbox', { name: /^Select (?!all)/ })
    expect(boxes[0]).toBeEnabled()
    await user.click(boxes[0]!)
    expect(screen.getByRole('region', { name: 'Selection' })).toHaveTextContent('1 selected')
  })

  it('offers no selection to internal staff, who cannot edit dispatches', async () => {
    signInAs('internal')
    renderApp('/dashboard')
    const table = await screen.findByRole('table', { name: 'Dispatches' })
    expect(within(table).queryByRole('checkbox')).not.toBeInTheDocument()
  })
})
