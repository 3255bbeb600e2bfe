import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, recordRequests, renderApp, requestsTo, signInAs } from '@/testing/test-utils'

beforeAll(preloadRoutes)

// The user form among the other forms of Settings (staff sign-in, second-factor rules).
const form = () => within(screen.getByRole('form', { name: /^(Create New User|Edit User)$/ }))
const openCreate = async () => {
  signInAs('admin', { id: 'user-admin' })
  const view = renderApp('/settings')
  await screen.findByRole('table', { name: 'Users' })
  await view.user.click(screen.getByRole('button', { name: 'Add User' }))
  expect(screen.getByRole('form', { name: 'Create New User' })).toBeInTheDocument()
  return view
}
const posts = (log: ReturnType<typeof recordRequests>) =>
  requestsTo(log, '/api/users').filter((r) => r.method === 'POST')

describe('Create New User', () => {
  it('starts as a client with the client list, its hint and count', async () => {
    await openCreate()
    expect(form().getByRole('combobox', { name: 'Role' })).toHaveValue('client')
    expect(form().getAllByRole('combobox', { name: 'Role' })[0]!.querySelectorAll('option')).toHaveLength(4)
    const client = form().getByRole('combobox', { name: 'Client' })
    expect(
      within(client)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Select a client', 'Acme Learning', 'Globex Training'])
    expect(client).toHaveAccessibleDescription(
      'This will determine which dispatches and registrations the user can access.2 clients available',
    )
    expect(form().getByLabelText('Username')).toHaveAttribute('placeholder', 'Optional')
    expect(form().getByLabelText('Password *')).toHaveAccessibleDescription(
      'Password must be 12 to 128 characters long.',
    )
    expect(form().getByRole('button', { name: 'Create User' })).toBeInTheDocument()
  })

  it.each<[{ email?: string; password?: string; client?: string }, string]>([
    [{}, 'Email and password are required for new users.'],
    [{ email: 'new@example.com' }, 'Email and password are required for new users.'],
    [{ email: 'not-an-email', password: 'a-long-enough-password' }, 'Please enter a valid email address.'],
    [
      { email: 'new@example.com', password: 'a-long-enough-password' },
      'Client role requires a selected client (destination).',
    ],
    [
      { email: 'new@example.com', password: 'short', client: 'company-1' },
      'Password must be 12 to 128 characters long.',
    ],
    // The shared password rule, the same function the server runs.
    [
      { email: 'new@example.com', password: 'z'.repeat(12), client: 'company-1' },
      'Password cannot be a single character repeated.',
    ],
    [
      { email: 'new@example.com', password: ' '.repeat(12), client: 'company-1' },
      'Password cannot be only spaces or other blank characters.',
    ],
    [
      { email: 'long.address@example.com', password: 'Long.Address@example.com', client: 'company-1' },
      'Password cannot be the account’s email address or the part before the @.',
    ],
  ])('refuses %j with the product-rules text and sends nothing', async (input, message) => {
    const log = recordRequests()
    const { user } = await openCreate()
    if (input.email) await user.type(form().getByLabelText('Email *'), input.email)
    if (input.password) await user.type(form().getByLabelText('Password *'), input.password)
    if (input.client) await user.selectOptions(form().getByRole('combobox', { name: 'Client' }), input.client)
    await user.click(form().getByRole('button', { name: 'Create User' }))
    expect(form().getByRole('alert')).toHaveTextContent(message)
    expect(posts(log)).toHaveLength(0)
  })

  it('creates a client, closes the form, reloads the list, and opens again empty as a client', async () => {
    const log = recordRequests()
    const { user } = await openCreate()
    await user.type(form().getByLabelText('Email *'), ' new@example.com ')
    await user.type(form().getByLabelText('Password *'), 'a-long-enough-password')
    await user.selectOptions(form().getByRole('combobox', { name: 'Client' }), 'company-2')
    const listLoads = requestsTo(log, '/api/users').filter((r) => r.method === 'GET').length
    await user.click(form().getByRole('button', { name: 'Create User' }))
    await waitFor(() =>
      expect(screen.queryByRole('form', { name: /^(Create New User|Edit User)$/ })).not.toBeInTheDocument(),
    )
    expect(posts(log)[0]!.body).toEqual({
      email: 'new@example.com',
      username: null,
      password: 'a-long-enough-password',
      role: 'client',
      destinationId: 'company-2',
      companyId: 'company-2',
    })
    await waitFor(() =>
      expect(requestsTo(log, '/api/users').filter((r) => r.method === 'GET').length).toBeGreaterThan(listLoads),
    )
    await user.click(screen.getByRole('button', { name: 'Add User' }))
    expect(form().getByLabelText('Email *')).toHaveValue('')
    expect(form().getByRole('combobox', { name: 'Role' })).toHaveValue('client')
  })

  it('hides the client for other roles and sends companyId null', async () => {
    const log = recordRequests()
    const { user } = await openCreate()
    await user.selectOptions(form().getByRole('combobox', { name: 'Role' }), 'sales')
    expect(form().queryByRole('combobox', { name: 'Client' })).not.toBeInTheDocument()
    await user.type(form().getByLabelText('Email *'), 'seller@example.com')
    await user.type(form().getByLabelText('Password *'), 'a-long-enough-password')
    await user.click(form().getByRole('button', { name: 'Create User' }))
    await waitFor(() => expect(posts(log)).toHaveLength(1))
    expect(posts(log)[0]!.body).toMatchObject({ role: 'sales', companyId: null, destinationId: null })
  })

  it('says No clients available when there are none', async () => {
    server.use(http.get('/api/dispatches/destinations', () => HttpResponse.json([])))
    await openCreate()
    const client = form().getByRole('combobox', { name: 'Client' })
    expect(client).toBeDisabled()
    expect(within(client).getByRole('option')).toHaveTextContent('No clients available')
    expect(form().getByText('0 clients available')).toBeInTheDocument()
  })

  it('shows the server message, else Failed to create user.', async () => {
    server.use(
      http.post('/api/users', () =>
        HttpResponse.json({ message: 'A user with this email already exists.' }, { status: 409 }),
      ),
    )
    const { user } = await openCreate()
    await user.selectOptions(form().getByRole('combobox', { name: 'Role' }), 'admin')
    await user.type(form().getByLabelText('Email *'), 'taken@example.com')
    await user.type(form().getByLabelText('Password *'), 'a-long-enough-password')
    await user.click(form().getByRole('button', { name: 'Create User' }))
    expect(await form().findByRole('alert')).toHaveTextContent('A user with this email already exists.')
    server.use(http.post('/api/users', () => HttpResponse.json({}, { status: 500 })))
    await user.click(form().getByRole('button', { name: 'Create User' }))
    await waitFor(() => expect(form().getByRole('alert')).toHaveTextContent('Failed to create user.'))
  })
})

describe('Edit User', () => {
  it('opens filled in from ?edit=, keeps a blank password out of the PUT and closes after saving', async () => {
    const log = recordRequests()
    signInAs('admin', { id: 'user-admin' })
    const { user } = renderApp('/settings?edit=user-client')
    const edit = await screen.findByRole('form', { name: 'Edit User' })
    expect(within(edit).getByLabelText('Email *')).toHaveValue('cleo@acme.test')
    const password = within(edit).getByLabelText('New Password')
    expect(password).toHaveAttribute('placeholder', 'Leave blank to keep current password')
    expect(password).toHaveAccessibleDescription(
      "Only enter a value if you want to change the user's password.Password must be 12 to 128 characters long.",
    )
    expect(within(edit).getByRole('combobox', { name: 'Client' })).toHaveValue('company-1')
    await user.type(within(edit).getByLabelText('Username'), 'cleo.c')
    await user.click(within(edit).getByRole('button', { name: 'Update User' }))
    await waitFor(() =>
      expect(screen.queryByRole('form', { name: /^(Create New User|Edit User)$/ })).not.toBeInTheDocument(),
    )
    const put = requestsTo(log, '/api/users/user-client').find((r) => r.method === 'PUT')!
    expect(put.body).toEqual({
      email: 'cleo@acme.test',
      username: 'cleo.c',
      role: 'client',
      destinationId: 'company-1',
      companyId: 'company-1',
    })
  })

  it('opens from the row’s Edit button and closes on Cancel', async () => {
    signInAs('admin', { id: 'user-admin' })
    const { user } = renderApp('/settings')
    await screen.findByRole('table', { name: 'Users' })
    await user.click(screen.getByRole('button', { name: 'Edit sales@example.com' }))
    expect(screen.getByRole('form', { name: 'Edit User' })).toBeInTheDocument()
    expect(form().queryByRole('combobox', { name: 'Client' })).not.toBeInTheDocument()
    await user.click(form().getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('form', { name: /^(Create New User|Edit User)$/ })).not.toBeInTheDocument()
  })
})
