import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { companyFixtures } from '@/testing/mocks/handlers/companies'
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

beforeAll(preloadRoutes)
afterEach(() => {
  window.innerWidth = 1024
})

const table = () => screen.findByRole('table', { name: 'Companies' })
const rowOf = (name: string) => screen.getByRole('cell', { name }).closest('tr')!

describe('companies list (/admin/companies)', () => {
  it('shows admins every column, counts and the footer', async () => {
    signInAs('admin')
    renderApp('/admin/companies')
    const grid = await table()
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Company Name', 'Account Manager', 'Users', 'Course Requests', 'Dispatches', 'Actions'])
    const acme = within(rowOf('Acme Learning'))
    expect(acme.getByText('Sam Sales')).toBeInTheDocument()
    expect(acme.getByText('sam@example.com')).toBeInTheDocument()
    expect(within(rowOf('Globex Training')).getByText('No Account Manager')).toBeInTheDocument()
    expect(
      acme
        .getAllByRole('cell')
        .map((c) => c.textContent)
        .slice(2, 5),
    ).toEqual(['4', '2', '3'])
    expect(acme.getByRole('link', { name: 'View Acme Learning' })).toHaveAttribute('href', '/admin/companies/company-1')
    expect(acme.getByRole('button', { name: 'Edit Acme Learning' })).toBeInTheDocument()
    expect(screen.getByText('Showing 3 of 3 companies')).toBeInTheDocument()
  })

  it('gives sales a view only: no Account Manager column, no Edit, no Sync', async () => {
    signInAs('sales')
    server.use(
      http.get('/api/admin/companies', () =>
        HttpResponse.json(companyFixtures.map(({ id, name, counts }) => ({ id, name, counts }))),
      ),
    )
    const log = recordRequests()
    renderApp('/admin/companies')
    const grid = await table()
    expect(within(grid).queryByRole('columnheader', { name: 'Account Manager' })).not.toBeInTheDocument()
    expect(within(grid).queryByRole('button', { name: /Edit/ })).not.toBeInTheDocument()
    expect(within(grid).getAllByRole('link', { name: /^View/ })).toHaveLength(3)
    expect(screen.queryByRole('button', { name: /Sync/ })).not.toBeInTheDocument()
    expect(requestsTo(log, '/api/admin/users/sales')).toHaveLength(0)
  })

  it.each([
    ['globex', ['Globex Training']],
    ['SUE@EXAMPLE', ['Initech Academy']],
    ['sam sales', ['Acme Learning']],
    ['company-3', ['Initech Academy']],
    ['no such company', []],
  ])('searches by name, account manager or id: %s', async (term, names) => {
    signInAs('admin')
    const { user } = renderApp('/admin/companies')
    await table()
    await user.type(screen.getByRole('searchbox', { name: 'Search companies' }), term)
    if (names.length === 0) {
      expect(await screen.findByText('No companies found')).toBeInTheDocument()
    } else {
      const rows = within(await table())
        .getAllByRole('row')
        .slice(1)
      expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual(names)
    }
    expect(screen.getByText(`Showing ${names.length} of 3 companies`)).toBeInTheDocument()
  })

  it('edits a name and the account manager inline, sending the chosen sales user', async () => {
    signInAs('admin')
    const log = recordRequests()
    const { user } = renderApp('/admin/companies')
    await table()
    await user.click(screen.getByRole('button', { name: 'Edit Globex Training' }))
    const name = screen.getByRole('textbox', { name: 'Company name' })
    const manager = screen.getByRole('combobox', { name: 'Account manager' })
    expect(
      within(manager)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['No Account Manager', 'Sam Sales (sam@example.com)', 'Sue Seller (sue@example.com)'])
    await user.clear(name)
    await user.type(name, ' Globex Academy ')
    await user.selectOptions(manager, 'sue@example.com')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(requestsTo(log, '/api/admin/companies/company-2')).toHaveLength(1))
    expect(requestsTo(log, '/api/admin/companies/company-2')[0]).toMatchObject({
      method: 'PUT',
      body: { name: 'Globex Academy', accountManagerName: 'Sue Seller', accountManagerEmail: 'sue@example.com' },
    })
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Company name' })).not.toBeInTheDocument())
  })

  it('refuses an empty name without a call, and shows the server failure text', async () => {
    signInAs('admin')
    const log = recordRequests()
    const { user } = renderApp('/admin/companies')
    await table()
    await user.click(screen.getByRole('button', { name: 'Edit Acme Learning' }))
    await user.clear(screen.getByRole('textbox', { name: 'Company name' }))
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Company name cannot be empty')
    expect(requestsTo(log, '/api/admin/companies/company-1')).toHaveLength(0)

    server.use(http.put('/api/admin/companies/:id', () => HttpResponse.json({}, { status: 500 })))
    await user.type(screen.getByRole('textbox', { name: 'Company name' }), 'Acme')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Account manager' }), '')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Error updating company')).toBeInTheDocument()
    expect(requestsTo(log, '/api/admin/companies/company-1')[0]!.body).toEqual({
      name: 'Acme',
      accountManagerName: null,
      accountManagerEmail: null,
    })
    expect(screen.getByRole('textbox', { name: 'Company name' })).toHaveValue('Acme')
  })

  it('shows Error fetching companies when the list fails', async () => {
    signInAs('admin')
    server.use(http.get('/api/admin/companies', () => HttpResponse.json({}, { status: 500 })))
    renderApp('/admin/companies')
    expect(await screen.findByText('Error fetching companies')).toBeInTheDocument()
  })

  it('shows cards below 1024 px', async () => {
    window.innerWidth = 800
    signInAs('admin')
    renderApp('/admin/companies')
    const cards = await screen.findByRole('list', { name: 'Companies' })
    expect(within(cards).getAllByRole('listitem')).toHaveLength(3)
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
  })
})

describe('companies sync (admin)', () => {
  it('syncs, shows the result tiles, and resets the label after 3 s', async () => {
    signInAs('admin')
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const { user } = renderApp('/admin/companies')
    await pollUntil(() => expect(screen.getByRole('button', { name: 'Sync Companies' })).toBeInTheDocument())
    await user.click(screen.getByRole('button', { name: 'Sync Companies' }))
    await pollUntil(() => expect(screen.getByRole('button', { name: 'Sync complete!' })).toBeInTheDocument())
    const tiles = screen.getByRole('region', { name: 'Sync from SCORM Cloud' })
    for (const [label, value] of [
      ['Created', '2'],
      ['Updated', '5'],
      ['Skipped', '40'],
      ['Errors', '1'],
    ] as const) {
      expect(within(tiles).getByText(label).nextElementSibling).toHaveTextContent(value)
    }
    await advance(2500)
    expect(screen.getByRole('button', { name: 'Sync complete!' })).toBeInTheDocument()
    await advance(600)
    expect(screen.getByRole('button', { name: 'Sync Companies' })).toBeInTheDocument()
  })

  it('says Sync failed! and Error syncing companies (or the server message) on failure', async () => {
    signInAs('admin')
    server.use(http.get('/api/admin/companies/sync', () => HttpResponse.json({}, { status: 500 })))
    const { user } = renderApp('/admin/companies')
    await user.click(await screen.findByRole('button', { name: 'Sync Companies' }))
    expect(await screen.findByRole('button', { name: 'Sync failed!' })).toBeInTheDocument()
    expect(screen.getByText('Error syncing companies')).toBeInTheDocument()

    server.use(
      http.get('/api/admin/companies/sync', () =>
        HttpResponse.json({ message: 'A sync is already running.' }, { status: 409 }),
      ),
    )
    await user.click(screen.getByRole('button', { name: 'Sync failed!' }))
    expect(await screen.findByText('A sync is already running.')).toBeInTheDocument()
  })
})
