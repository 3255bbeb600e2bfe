import type { Destination, LogEntry } from '@portal/shared'
import { http, HttpResponse } from 'msw'
import { makeUser } from '@/testing/data-generators'
import type { User } from '@/types/api'
import { fixtureBuilder } from '../fixture'

export const destinationFixtures: Destination[] = [
  { id: 'company-1', name: 'Acme Learning' },
  { id: 'company-2', name: 'Globex Training' },
]

export const userFixtures: User[] = [
  makeUser('admin', { id: 'user-admin', lastLogin: '2026-03-01T08:00:00.000Z' }),
  makeUser('client', { id: 'user-client', email: 'cleo@acme.test', username: '', name: null }),
  makeUser('sales', { id: 'user-sales', status: 'suspended' }),
]

export const makeLogEntry = fixtureBuilder<LogEntry>(() => ({
  id: 1,
  createdAt: '2026-03-01T08:00:00.000Z',
  action: 'LOGIN_SUCCESS',
  details: { message: 'Signed in' },
  ipAddress: '10.0.0.1',
  user: { id: 'user-admin', name: 'Ada Admin', email: 'admin@example.com' },
}))

const withMessage = (user: User, message: string) => ({ ...user, message })

/** Typed fixtures only; the rules live on the server and in @portal/shared. */
export const userHandlers = [
  http.get('/api/dispatches/destinations', () => HttpResponse.json(destinationFixtures)),
  http.get('/api/users', () => HttpResponse.json(userFixtures)),
  http.get<{ id: string }>('/api/users/:id', ({ params }) => {
    const user = userFixtures.find((u) => u.id === params.id)
    return user ? HttpResponse.json(user) : HttpResponse.json({ message: 'User not found' }, { status: 404 })
  }),
  http.get<{ id: string }>('/api/users/:id/activity', () => HttpResponse.json([makeLogEntry()])),
  http.post<never, Partial<User>>('/api/users', async ({ request }) => {
    const body = await request.json()
    return HttpResponse.json(
      withMessage(makeUser(body.role ?? 'client', { ...body, id: 'user-new' }), 'User created successfully'),
      {
        status: 201,
      },
    )
  }),
  http.put<{ id: string }, Partial<User>>('/api/users/:id', async ({ params, request }) => {
    const user = userFixtures.find((u) => u.id === params.id) ?? makeUser('client', { id: params.id })
    return HttpResponse.json(withMessage({ ...user, ...(await request.json()) }, 'User updated successfully'))
  }),
  http.put<{ id: string }, { status: User['status'] }>('/api/users/:id/status', async ({ params, request }) => {
    const user = userFixtures.find((u) => u.id === params.id) ?? makeUser('client', { id: params.id })
    return HttpResponse.json(withMessage({ ...user, status: (await request.json()).status }, 'User status updated'))
  }),
  http.delete('/api/users/:id', () => HttpResponse.json({ message: 'User deleted successfully' })),
]
