import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { buildTestApp, type TestContext } from '../test/helpers'

let t: TestContext
beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(async () => t.close())

const me = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers })

async function signedInClient(company: string) {
  await t.createCompany(company, `${company} Ltd`)
  const user = await t.createUser('client', { companyId: company })
  const tokens = await t.login(user.email)
  const headers = { 'x-auth-token': tokens.accessToken }
  expect((await me(headers)).json().destinationName).toBe(`${company} Ltd`)
  // A second call: on PGlite the remembered answer, which the writes below must make it forget.
  expect((await me(headers)).statusCode).toBe(200)
  return { user, headers, refreshToken: tokens.refreshToken }
}

describe('the session check of every gated request', () => {
  it('sees a company renamed by any path on the very next call', async () => {
    const { headers } = await signedInClient('renamed-co')
    await t.database.db.execute(sql`update company set name = 'Renamed Ltd' where id = 'renamed-co'`)
    expect((await me(headers)).json().destinationName).toBe('Renamed Ltd')
  })

  it('refuses a user suspended, a session revoked or a token version moved on, at the next call', async () => {
    const suspended = await signedInClient('suspended-co')
    await t.database.db.execute(sql`update app_user set status = 'suspended' where id = ${suspended.user.id}`)
    expect((await me(suspended.headers)).statusCode).toBe(401)

    const revoked = await signedInClient('revoked-co')
    await t.database.db.execute(sql`update auth_session set revoked_at = now() where user_id = ${revoked.user.id}`)
    expect((await me(revoked.headers)).statusCode).toBe(401)

    const moved = await signedInClient('moved-co')
    await t.database.db.execute(sql`update app_user set token_version = token_version + 1 where id = ${moved.user.id}`)
    expect((await me(moved.headers)).statusCode).toBe(401)

    const expired = await signedInClient('expired-co')
    await t.database.db.execute(
      sql`update auth_session set expires_at = now() - interval '1 second' where user_id = ${expired.user.id}`,
    )
    expect((await me(expired.headers)).statusCode).toBe(401)
  })

  it('refuses at once after signing out through the API', async () => {
    const { headers, refreshToken } = await signedInClient('signed-out-co')
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/revoke-token',
      headers,
      payload: { refreshToken },
    })
    expect(out.statusCode).toBeLessThan(300)
    expect((await me(headers)).statusCode).toBe(401)
  })

  it('remembers answers only on PGlite, and forgets them through the write notices alone', async () => {
    const { user, headers } = await signedInClient('remembered-co')
    // With the notices off for the change, only a process that remembers still shows the old name.
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local portal.session_notices = 'off'`)
      await tx.execute(sql`update app_user set name = 'Quietly Renamed' where id = ${user.id}`)
    })
    const shown = (await me(headers)).json().name
    if (t.database.kind === 'pglite') expect(shown).not.toBe('Quietly Renamed')
    else expect(shown).toBe('Quietly Renamed')
    // Any noticed write makes the remembering process read again.
    await t.database.db.execute(sql`update company set name = name where id = 'remembered-co'`)
    expect((await me(headers)).json().name).toBe('Quietly Renamed')
  })
})
