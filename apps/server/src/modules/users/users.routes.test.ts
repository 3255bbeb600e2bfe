import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { activityLog, appUser } from '../../db/schema'
import { buildTestApp, TEST_PASSWORD, type TestContext } from '../../test/helpers'

let t: TestContext
let admin: Awaited<ReturnType<TestContext['loginAs']>>
beforeAll(async () => {
  t = await buildTestApp()
  admin = await t.loginAs('admin')
  await t.createCompany('company-a', 'Company A')
})
afterAll(async () => t.close())

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
const call = (method: Method, url: string, payload?: Record<string, unknown>, headers = admin.headers) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) })

const countUsers = async () => (await t.database.db.select({ id: appUser.id }).from(appUser)).length
const lastAction = async () => {
  const rows = await t.database.db.select().from(activityLog)
  return rows.sort((a, b) => b.id - a.id)[0]
}

describe('access', () => {
  it('refuses every users route to sales, internal and client (403) and to no token (401)', async () => {
    const target = await t.createUser('internal')
    for (const role of ['sales', 'internal', 'client'] as const) {
      const { headers } = await t.loginAs(role)
      for (const [method, url, body] of [
        ['GET', '/api/users', undefined],
        ['GET', `/api/users/${target.id}`, undefined],
        ['GET', `/api/users/${target.id}/activity`, undefined],
        ['POST', '/api/users', { email: 'x@y.zz', password: 'a-long-enough-password', role: 'admin' }],
        ['PUT', `/api/users/${target.id}`, { role: 'admin' }],
        ['PUT', `/api/users/${target.id}/status`, { status: 'suspended' }],
        ['DELETE', `/api/users/${target.id}`, undefined],
      ] as const) {
        const res = await call(method, url, body, headers)
        expect(res.statusCode, `${role} ${method} ${url}`).toBe(403)
      }
    }
    for (const [method, url] of [
      ['GET', '/api/users'],
      ['GET', `/api/users/${target.id}`],
      ['POST', '/api/users'],
      ['PUT', `/api/users/${target.id}/status`],
      ['DELETE', `/api/users/${target.id}`],
    ] as const) {
      expect((await t.app.inject({ method, url })).statusCode, `${method} ${url}`).toBe(401)
    }
    const [row] = await t.database.db.select().from(appUser).where(eq(appUser.id, target.id))
    expect(row).toMatchObject({ role: 'internal', status: 'active' })
  })

  it('lets sales and admin read the sales users, not internal or client', async () => {
    await t.createUser('sales', { name: 'Sara Seller' })
    const res = await call('GET', '/api/admin/users/sales')
    expect(res.statusCode).toBe(200)
    expect(res.json().map((u: { name: string }) => u.name)).toContain('Sara Seller')
    expect(res.json().every((u: { id: string; name: string; email: string }) => u.id && u.email)).toBe(true)
    const sales = await t.loginAs('sales')
    expect((await call('GET', '/api/admin/users/sales', undefined, sales.headers)).statusCode).toBe(200)
    const client = await t.loginAs('client')
    expect((await call('GET', '/api/admin/users/sales', undefined, client.headers)).statusCode).toBe(403)
  })
})

describe('POST /api/users', () => {
  it('creates a client of a company, defaulting username and status, and logs ADMIN_USER_CREATED', async () => {
    const res = await call('POST', '/api/users', {
      email: 'new.client@example.test',
      password: 'a-long-enough-password',
      role: 'client',
      destinationId: 'company-a',
    })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toMatchObject({
      email: 'new.client@example.test',
      username: 'new.client',
      role: 'client',
      companyId: 'company-a',
      destinationName: 'Company A',
      status: 'active',
      message: 'User created successfully',
    })
    expect(res.body).not.toMatch(/password/i)
    expect(await lastAction()).toMatchObject({ action: 'ADMIN_USER_CREATED', userId: admin.user.id })
    const { accessToken } = await t.login('new.client@example.test', 'a-long-enough-password')
    expect(accessToken).toBeTruthy()
  })

  it('keeps companyId only for clients', async () => {
    const res = await call('POST', '/api/users', {
      email: 'sales.person@example.test',
      password: 'a-long-enough-password',
      role: 'sales',
      companyId: 'company-a',
    })
    expect(res.statusCode).toBe(201)
    expect(res.json().companyId).toBeNull()
  })

  it.each([
    [{ email: 'a@example.test', role: 'admin' }, 'Email and password are required for new users.'],
    [
      { email: '', password: 'a-long-enough-password', role: 'admin' },
      'Email and password are required for new users.',
    ],
    [
      { email: 'c@example.test', password: 'a-long-enough-password', role: 'client' },
      'Client role requires a selected client (destination).',
    ],
    [{ email: 'd@example.test', password: 'short', role: 'admin' }, 'Password must be 12 to 128 characters long.'],
    [
      { email: 'e@example.test', password: 'x'.repeat(129), role: 'admin' },
      'Password must be 12 to 128 characters long.',
    ],
    [
      { email: 'f@example.test', password: 'qwerty123456', role: 'admin' },
      'This password is too common. Please choose a less guessable one.',
    ],
    [
      { email: 'h@example.test', password: 'Q'.repeat(12), role: 'admin' },
      'Password cannot be a single character repeated.',
    ],
    [
      { email: 'i@example.test', password: ' '.repeat(12), role: 'admin' },
      'Password cannot be only spaces or other blank characters.',
    ],
    [
      { email: 'own.address@example.test', password: 'OWN.ADDRESS@example.test', role: 'admin' },
      'Password cannot be the account’s email address or the part before the @.',
    ],
    [
      { email: 'not-an-email', password: 'a-long-enough-password', role: 'admin' },
      'Please enter a valid email address.',
    ],
    [
      { email: 'g@example.test', password: 'a-long-enough-password', role: 'client', companyId: 'nope' },
      'The selected client (destination) does not exist.',
    ],
  ])('refuses %j with a clear 400 and creates nothing', async (body, message) => {
    const before = await countUsers()
    const res = await call('POST', '/api/users', body)
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe(message)
    expect(await countUsers()).toBe(before)
    expect(await lastAction()).toMatchObject({ action: 'ADMIN_USER_CREATE_FAILED' })
  })

  it('refuses an unknown role with 400', async () => {
    const res = await call('POST', '/api/users', {
      email: 'h@example.test',
      password: 'a-long-enough-password',
      role: 'root',
    })
    expect(res.statusCode).toBe(400)
  })

  it('answers 409 for an email already used, whatever its case', async () => {
    const existing = await t.createUser('internal', { email: 'Taken@Example.test' })
    const res = await call('POST', '/api/users', {
      email: 'taken@example.TEST',
      password: 'a-long-enough-password',
      role: 'admin',
    })
    expect(res.statusCode).toBe(409)
    expect(res.json().message).toBe('A user with this email already exists.')
    expect(existing.id).toBeTruthy()
  })

  it('drops unknown fields such as status or passwordHash', async () => {
    const res = await call('POST', '/api/users', {
      email: 'mass@example.test',
      password: 'a-long-enough-password',
      role: 'internal',
      status: 'suspended',
      passwordHash: 'x',
    })
    expect(res.statusCode).toBe(201)
    expect(res.json().status).toBe('active')
    expect((await t.login('mass@example.test', 'a-long-enough-password')).accessToken).toBeTruthy()
  })
})

describe('PUT /api/users/:id', () => {
  it('updates fields and keeps the password when blank', async () => {
    const user = await t.createUser('internal')
    const res = await call('PUT', `/api/users/${user.id}`, { username: 'renamed', password: '' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ username: 'renamed', message: 'User updated successfully' })
    expect(await lastAction()).toMatchObject({ action: 'ADMIN_USER_UPDATED' })
    expect((await t.login(user.email, TEST_PASSWORD)).accessToken).toBeTruthy()
  })

  it('refuses a new password that is the user’s own (new) email, with nothing changed', async () => {
    const user = await t.createUser('sales', { email: 'renamed.person@example.test' })
    const own = await call('PUT', `/api/users/${user.id}`, { password: 'renamed.person@example.test' })
    expect(own.statusCode).toBe(400)
    expect(own.json().message).toBe('Password cannot be the account’s email address or the part before the @.')
    const moved = await call('PUT', `/api/users/${user.id}`, {
      email: 'moved.person@example.test',
      password: 'moved.person@example.test',
    })
    expect(moved.statusCode).toBe(400)
    const [row] = await t.database.db.select().from(appUser).where(eq(appUser.id, user.id))
    expect(row!.email).toBe('renamed.person@example.test')
    expect((await t.login(user.email, TEST_PASSWORD)).accessToken).toBeTruthy()
  })

  it('a password change ends the user’s sessions: old access and refresh tokens fail', async () => {
    const user = await t.createUser('sales')
    const tokens = await t.login(user.email)
    const res = await call('PUT', `/api/users/${user.id}`, { password: 'a-brand-new-password' })
    expect(res.statusCode).toBe(200)
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { 'x-auth-token': tokens.accessToken },
    })
    expect(me.statusCode).toBe(401)
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh-token',
      payload: { refreshToken: tokens.refreshToken },
    })
    expect(refresh.statusCode).toBe(401)
    expect((await t.login(user.email, 'a-brand-new-password')).accessToken).toBeTruthy()
  })

  it('a role change ends the user’s sessions and drops the company unless client', async () => {
    const user = await t.createUser('client', { companyId: 'company-a' })
    const tokens = await t.login(user.email)
    const res = await call('PUT', `/api/users/${user.id}`, { role: 'internal' })
    expect(res.json()).toMatchObject({ role: 'internal', companyId: null })
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { 'x-auth-token': tokens.accessToken },
    })
    expect(me.statusCode).toBe(401)
  })

  it('refuses a change to client without a company, and 404 for an unknown user', async () => {
    const user = await t.createUser('internal')
    const res = await call('PUT', `/api/users/${user.id}`, { role: 'client' })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('Client role requires a selected client (destination).')
    const [row] = await t.database.db.select().from(appUser).where(eq(appUser.id, user.id))
    expect(row!.role).toBe('internal')
    const missing = await call('PUT', '/api/users/00000000-0000-4000-8000-000000000000', { username: 'x' })
    expect(missing.statusCode).toBe(404)
    expect(missing.json().message).toBe('User not found')
  })

  it('refuses an email another user has, with 409', async () => {
    const a = await t.createUser('internal')
    const b = await t.createUser('internal')
    const res = await call('PUT', `/api/users/${b.id}`, { email: a.email.toUpperCase() })
    expect(res.statusCode).toBe(409)
  })
})

describe('PUT /api/users/:id/status and DELETE /api/users/:id', () => {
  it('suspends (signing the user out at once) and activates', async () => {
    const user = await t.createUser('client', { companyId: 'company-a' })
    const tokens = await t.login(user.email)
    const res = await call('PUT', `/api/users/${user.id}/status`, { status: 'suspended' })
    expect(res.statusCode).toBe(200)
    expect(res.json().status).toBe('suspended')
    expect(await lastAction()).toMatchObject({ action: 'ADMIN_USER_SUSPENDED' })
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { 'x-auth-token': tokens.accessToken },
    })
    expect(me.statusCode).toBe(401)
    const back = await call('PUT', `/api/users/${user.id}/status`, { status: 'active' })
    expect(back.json().status).toBe('active')
    expect(await lastAction()).toMatchObject({ action: 'ADMIN_USER_ACTIVATED' })
  })

  it('refuses an admin changing their own status or deleting themselves', async () => {
    const status = await call('PUT', `/api/users/${admin.user.id}/status`, { status: 'suspended' })
    expect(status.statusCode).toBe(400)
    expect(status.json().message).toBe('Admins cannot change their own account status.')
    const del = await call('DELETE', `/api/users/${admin.user.id}`)
    expect(del.statusCode).toBe(400)
    expect(del.json().message).toBe('Admins cannot delete their own account.')
    const [row] = await t.database.db.select().from(appUser).where(eq(appUser.id, admin.user.id))
    expect(row!.status).toBe('active')
  })

  it('refuses an admin changing its own role (the last admin would lock administration out), nothing changes', async () => {
    for (const role of ['internal', 'sales', 'client'] as const) {
      const res = await call('PUT', `/api/users/${admin.user.id}`, { role, companyId: 'company-a' })
      expect(res.statusCode).toBe(400)
      expect(res.json().message).toBe('Admins cannot change their own role.')
    }
    const [row] = await t.database.db.select().from(appUser).where(eq(appUser.id, admin.user.id))
    expect(row!.role).toBe('admin')
    // The session still works (a role change would have ended it), and sending its own role is fine.
    const same = await call('PUT', `/api/users/${admin.user.id}`, { role: 'admin', name: 'Still Admin' })
    expect(same.statusCode).toBe(200)
    expect(same.json()).toMatchObject({ role: 'admin', name: 'Still Admin' })
    // Another admin may still change this one's role: the rule is about oneself.
    const other = await t.createUser('admin')
    expect((await call('PUT', `/api/users/${other.id}`, { role: 'internal' })).json().role).toBe('internal')
  })

  it('deletes a user, whose tokens stop working, and keeps their activity rows readable', async () => {
    const user = await t.createUser('sales', { name: 'Gone Soon' })
    const tokens = await t.login(user.email)
    const res = await call('DELETE', `/api/users/${user.id}`)
    expect(res.statusCode).toBe(200)
    expect((await call('GET', `/api/users/${user.id}`)).statusCode).toBe(404)
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { 'x-auth-token': tokens.accessToken },
    })
    expect(me.statusCode).toBe(401)
    const rows = await t.database.db.select().from(activityLog).where(eq(activityLog.userId, user.id))
    expect(rows.find((r) => r.action === 'LOGIN_SUCCESS')).toMatchObject({
      actorName: 'Gone Soon',
      actorEmail: user.email,
    })
    expect(await lastAction()).toMatchObject({ action: 'ADMIN_USER_DELETED' })
  })

  it('lists users with the product-rules fields', async () => {
    const res = await call('GET', '/api/users')
    expect(res.statusCode).toBe(200)
    const first = res.json()[0]
    expect(Object.keys(first).sort()).toEqual(
      [
        'companyId',
        'createdAt',
        'destinationId',
        'destinationName',
        'email',
        'id',
        'lastLogin',
        'name',
        'role',
        'status',
        'username',
      ].sort(),
    )
  })
})
