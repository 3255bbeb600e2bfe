import type { CreateDispatchBody, Dispatch } from '@portal/shared'
import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { makeDispatch, makeDispatchList } from '@/testing/mocks/handlers/dispatches'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, recordRequests, renderApp, requestsTo, signInAs } from '@/testing/test-utils'

beforeAll(preloadRoutes)

let saved: HTMLAnchorElement[] = []
beforeEach(() => {
  saved = []
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this)
  })
  Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:package'), revokeObjectURL: vi.fn() })
})
afterEach(() => {
  Reflect.deleteProperty(URL, 'createObjectURL')
  Reflect.deleteProperty(URL, 'revokeObjectURL')
})

const zip = () =>
  new HttpResponse(new Uint8Array([0x50, 0x4b, 5, 6]), { headers: { 'Content-Type': 'application/zip' } })

describe('New Dispatch', () => {
  it('lets an admin pick a company and a course from searchable lists and create the dispatch', async () => {
    signInAs('admin')
    const created = makeDispatch({
      id: 'd-new',
      courseTitle: 'Data Protection Essentials',
      destinationName: 'Globex Training',
    })
    let body: CreateDispatchBody | null = null
    server.use(
      http.post('/api/dispatches', async ({ request }) => {
        body = (await request.json()) as CreateDispatchBody
        return HttpResponse.json(created, { status: 201 })
      }),
    )
    const { user } = renderApp('/dashboard')
    await user.click(await screen.findByRole('button', { name: 'New Dispatch' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'New Dispatch' }))

    await user.click(dialog.getByRole('button', { name: 'Create Dispatch' }))
    expect(dialog.getByText('Choose a company.')).toBeInTheDocument()
    expect(body).toBeNull()

    await user.type(dialog.getByRole('searchbox', { name: 'Search companies' }), 'glob')
    const companies = dialog.getByRole('listbox', { name: /Company/ })
    expect(
      within(companies)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Globex Training'])
    await user.selectOptions(companies, 'company-2')
    await waitFor(() =>
      expect(within(dialog.getByRole('listbox', { name: /Course/ })).getAllByRole('option').length).toBeGreaterThan(1),
    )
    await user.selectOptions(dialog.getByRole('listbox', { name: /Course/ }), 'course-2')
    await user.type(dialog.getByLabelText('License cap'), '25')
    await user.type(dialog.getByLabelText('Tags'), 'pilot, q3')
    await user.click(dialog.getByRole('switch', { name: 'Enabled' }))
    await user.click(dialog.getByRole('button', { name: 'Create Dispatch' }))

    expect(await screen.findByText('Dispatch created.')).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'View Data Protection Essentials' })).toHaveAttribute(
      'href',
      '/dispatches/d-new',
    )
    expect(body).toEqual({
      companyId: 'company-2',
      courseId: 'course-2',
      registrationCap: 25,
      enabled: false,
      notes: '',
      tags: ['pilot', 'q3'],
    })
  })

  it('shows the 409 message with a link to the existing dispatch', async () => {
    signInAs('admin')
    server.use(
      http.post('/api/dispatches', () =>
        HttpResponse.json(
          {
            code: 'CONFLICT',
            message: 'Acme Learning already has a dispatch of Workplace Safety Basics.',
            dispatchId: 'd-1',
          },
          { status: 409 },
        ),
      ),
    )
    const { user } = renderApp('/dashboard')
    await user.click(await screen.findByRole('button', { name: 'New Dispatch' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'New Dispatch' }))
    await user.selectOptions(dialog.getByRole('listbox', { name: /Company/ }), 'company-1')
    await waitFor(() =>
      expect(within(dialog.getByRole('listbox', { name: /Course/ })).getAllByRole('option').length).toBeGreaterThan(0),
    )
    await user.selectOptions(dialog.getByRole('listbox', { name: /Course/ }), 'course-1')
    await user.click(dialog.getByRole('button', { name: 'Create Dispatch' }))
    const alert = await dialog.findByRole('alert')
    expect(alert).toHaveTextContent('Acme Learning already has a dispatch of Workplace Safety Basics.')
    expect(within(alert).getByRole('link', { name: 'View the existing dispatch' })).toHaveAttribute(
      'href',
      '/dispatches/d-1',
    )
  })

  it('offers New Dispatch in the empty state to admins only', async () => {
    server.use(
      http.get('/api/dispatches', ({ request }) => HttpResponse.json(makeDispatchList(request, { dispatches: [] }))),
    )
    signInAs('admin')
    const admin = renderApp('/dashboard')
    expect(await screen.findByText('Get started by creating a new dispatch')).toBeInTheDocument()
    expect(screen.getAllByRole('button', { name: 'New Dispatch' })).toHaveLength(2)
    admin.unmount()
    signInAs('sales')
    renderApp('/dashboard')
    expect(await screen.findByText('Get started by creating a new dispatch')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'New Dispatch' })).not.toBeInTheDocument()
  })
})

describe('package downloads', () => {
  it('downloads a row’s package as <company> - <course>.zip, and a client all its packages', async () => {
    signInAs('client', { companyId: 'company-1' })
    const log = recordRequests()
    server.use(
      http.get('/api/dispatches', ({ request }) =>
        HttpResponse.json(makeDispatchList(request, { dispatches: [makeDispatch()] })),
      ),
      http.get('/api/dispatches/:id/package', zip),
      http.get('/api/dispatches/packages', zip),
    )
    const { user } = renderApp('/dashboard')
    await user.click(await screen.findByRole('button', { name: /Download package of Workplace Safety Basics/ }))
    await waitFor(() => expect(saved).toHaveLength(1))
    expect(saved[0]!.download).toBe('Acme Learning - Workplace Safety Basics.zip')
    expect(requestsTo(log, '/api/dispatches/d-1/package')).toHaveLength(1)

    await user.click(screen.getByRole('button', { name: 'Download all packages' }))
    await waitFor(() => expect(saved).toHaveLength(2))
    expect(saved[1]!.download).toBe('Acme Learning - all packages.zip')
    expect(screen.queryByRole('button', { name: 'New Dispatch' })).not.toBeInTheDocument()
  })

  it('shows why a download was refused (the server’s message)', async () => {
    signInAs('client', { companyId: 'company-1' })
    const refused = 'This dispatch is disabled. Contact your account manager.'
    server.use(
      http.get('/api/dispatches/:id/package', () =>
        HttpResponse.json({ code: 'FORBIDDEN', message: refused }, { status: 403 }),
      ),
    )
    const { user } = renderApp('/dispatches/d-1')
    await user.click(await screen.findByRole('button', { name: 'Download package' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(refused)
    expect(saved).toEqual([])
  })
})

describe('Reset registration count', () => {
  it('confirms with the current count, resets, and shows Last reset', async () => {
    signInAs('admin')
    let stored: Dispatch = makeDispatch({ registrationCount: 42, registrationResetDate: null })
    server.use(
      http.get('/api/dispatches/:id', () => HttpResponse.json(stored)),
      http.post('/api/dispatches/:id/registration-count/reset', () => {
        stored = { ...stored, registrationCount: 0, registrationResetDate: '2026-05-04T10:00:00.000Z' }
        return HttpResponse.json(stored)
      }),
    )
    const log = recordRequests()
    const { user } = renderApp('/dispatches/d-1')
    const card = within(await screen.findByRole('region', { name: /General Information/ }))
    expect(card.getByText('Last reset').nextElementSibling).toHaveTextContent('Never')

    await user.click(screen.getByRole('button', { name: 'Reset registration count' }))
    const dialog = within(screen.getByRole('alertdialog', { name: 'Reset the registration count?' }))
    expect(dialog.getByText(/is 42 now/)).toBeInTheDocument()
    expect(dialog.getByRole('button', { name: 'Cancel' })).toHaveFocus()
    await user.click(dialog.getByRole('button', { name: 'Reset count' }))

    expect(await screen.findByText('Registration count reset.')).toBeInTheDocument()
    expect(requestsTo(log, '/api/dispatches/d-1/registration-count/reset')).toHaveLength(1)
    expect(card.getByText('Last reset').nextElementSibling).not.toHaveTextContent('Never')
    expect(card.getByText('Counted since the last reset.')).toBeInTheDocument()
  })

  it('is not offered to internal users', async () => {
    signInAs('internal')
    renderApp('/dispatches/d-1')
    expect(await screen.findByRole('button', { name: 'Download package' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Reset registration count' })).not.toBeInTheDocument()
  })
})
