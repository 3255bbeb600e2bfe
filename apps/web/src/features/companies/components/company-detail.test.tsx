import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { makeCompanyDetail } from '@/testing/mocks/handlers/companies'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, recordRequests, renderApp, requestsTo, signInAs } from '@/testing/test-utils'

beforeAll(preloadRoutes)

const DETAIL = '/api/admin/companies/:id'
const open = async (role: 'admin' | 'sales' = 'admin') => {
  signInAs(role)
  const view = renderApp('/admin/companies/company-1')
  await screen.findByRole('heading', { level: 1, name: 'Acme Learning' })
  return view
}
const rows = (tableName: string) =>
  within(screen.getByRole('table', { name: tableName }))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    )

describe('company detail (/admin/companies/{id})', () => {
  it('shows the back link, the id and the Users tab with View links', async () => {
    await open()
    expect(screen.getByRole('link', { name: 'Back to Companies' })).toHaveAttribute('href', '/admin/companies')
    expect(screen.getByText('company-1')).toBeInTheDocument()
    const users = screen.getByRole('tab', { name: 'Users (2)' })
    expect(users).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByRole('tabpanel', { name: 'Users (2)' })).toBeInTheDocument()
    expect(rows('Users')).toEqual([
      ['Cleo Client', 'cleo@acme.test', 'client', 'View Cleo Client'],
      ['Carl Client', 'carl@acme.test', 'client', 'View Carl Client'],
    ])
    expect(screen.getByRole('link', { name: 'View Cleo Client' })).toHaveAttribute('href', '/admin/users/user-c1')
  })

  it('moves between the tabs with the arrow keys and shows requests and dispatches', async () => {
    const { user } = await open()
    screen.getByRole('tab', { name: 'Users (2)' }).focus()
    await user.keyboard('{ArrowRight}')
    const requests = screen.getByRole('tab', { name: 'Course Requests (1)' })
    expect(requests).toHaveAttribute('aria-selected', 'true')
    expect(requests).toHaveFocus()
    expect(rows('Course Requests')).toEqual([
      ['Data Protection Essentials', 'Cleo Client', '25', 'PENDING', expect.stringMatching(/^2026-03-04/)],
    ])
    // The last tab is the admin's Sign-in tab; the dispatches are just before it.
    await user.keyboard('{End}')
    expect(screen.getByRole('tab', { name: 'Sign-in' })).toHaveAttribute('aria-selected', 'true')
    await user.keyboard('{ArrowLeft}')
    expect(screen.getByRole('tab', { name: 'SCORM Dispatches (2)' })).toHaveAttribute('aria-selected', 'true')
    expect(rows('SCORM Dispatches')).toEqual([
      ['Workplace Safety Basics', '2026-01-10', '2026-12-31', '42 / 100'],
      ['Leadership Foundations', '2026-02-01', 'No Expiry', '7 / ∞'],
    ])
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    await user.keyboard('{End}{ArrowRight}')
    expect(screen.getByRole('tab', { name: 'Users (2)' })).toHaveAttribute('aria-selected', 'true')
  })

  it('warns when scormError is returned', async () => {
    server.use(
      http.get(DETAIL, () => HttpResponse.json(makeCompanyDetail({ scormError: 'SCORM Cloud could not be reached.' }))),
    )
    const { user } = await open()
    await user.click(screen.getByRole('tab', { name: 'SCORM Dispatches (2)' }))
    expect(screen.getByRole('alert')).toHaveTextContent('SCORM Cloud could not be reached.')
  })

  it('renames the company sending the name only, refusing an empty one', async () => {
    const log = recordRequests()
    const { user } = await open()
    await user.click(screen.getByRole('button', { name: 'Edit name' }))
    const input = screen.getByRole('textbox', { name: 'Company name' })
    await user.clear(input)
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(screen.getByRole('alert')).toHaveTextContent('Company name cannot be empty')
    await user.type(input, 'Acme Academy')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(requestsTo(log, '/api/admin/companies/company-1').filter((r) => r.method === 'PUT')).toHaveLength(1),
    )
    expect(requestsTo(log, '/api/admin/companies/company-1').find((r) => r.method === 'PUT')!.body).toEqual({
      name: 'Acme Academy',
    })
  })

  it('shows Error updating company name when the rename fails', async () => {
    server.use(http.put(DETAIL, () => HttpResponse.json({}, { status: 500 })))
    const { user } = await open()
    await user.click(screen.getByRole('button', { name: 'Edit name' }))
    await user.type(screen.getByRole('textbox', { name: 'Company name' }), ' Two')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Error updating company name')).toBeInTheDocument()
  })

  it('gives sales no rename and no link to the admin-only user page', async () => {
    await open('sales')
    expect(screen.queryByRole('button', { name: 'Edit name' })).not.toBeInTheDocument()
    expect(screen.queryByRole('link', { name: /View/ })).not.toBeInTheDocument()
  })

  it.each([
    [404, 'Company not found'],
    [500, 'Error fetching company details'],
  ])('answers %i with %s', async (status, text) => {
    server.use(http.get(DETAIL, () => HttpResponse.json({}, { status })))
    signInAs('admin')
    renderApp('/admin/companies/company-1')
    expect(await screen.findByText('Loading company details...')).toBeInTheDocument()
    expect(await screen.findByText(text)).toBeInTheDocument()
  })
})
