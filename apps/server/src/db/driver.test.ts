import { PGlite } from '@electric-sql/pglite'
import { describe, expect, it, vi } from 'vitest'
import { pgliteDriver, preparedName } from './driver'

describe('preparedName', () => {
  const text = 'select "id" from "dispatch" where "id" = $1'

  it('names a statement by its text: the same name on every run, another for another text', () => {
    const name = preparedName(text, ['a'])
    expect(name).toMatch(/^s[A-Za-z0-9_-]{22}$/)
    expect(preparedName(text, ['b'])).toBe(name)
    expect(preparedName(`${text} limit 1`, ['a'])).not.toBe(name)
  })

  it('names nothing without parameters or over a table planned for its values', () => {
    expect(preparedName(text, [])).toBeUndefined()
    expect(preparedName('select 1 from "registration" where "id" = $1', ['a'])).toBeUndefined()
  })

  it('gives the same names after many other texts have been named', () => {
    const name = preparedName(text, ['a'])
    for (let i = 0; i < 12_000; i += 1) preparedName(`select ${i} from "course" where "id" = $1`, ['a'])
    expect(preparedName(text, ['a'])).toBe(name)
  })
})

describe('kept statements on PGlite', () => {
  it('fails a statement whose call into PGlite throws, and runs the next on a new client', async () => {
    const pglite = new PGlite()
    try {
      await pglite.exec(
        `create table item (id int primary key, name text); insert into item values (1, 'one'), (2, 'two')`,
      )
      const driver = pgliteDriver(pglite)
      const text = 'select name from item where id = $1'
      expect(await driver.rows(text, [1])).toEqual([{ name: 'one' }])

      const call = vi.spyOn(pglite, 'execProtocolStream').mockRejectedValueOnce(new Error('PGlite stopped'))
      await expect(driver.rows(text, [2])).rejects.toThrow('PGlite stopped')
      call.mockRestore()

      // The same statement again: prepared afresh under its name on a new client.
      expect(await driver.rows(text, [2])).toEqual([{ name: 'two' }])
      expect(await driver.rows('select count(*)::int as n from item where id > $1', [0])).toEqual([{ n: 2 }])
    } finally {
      await pglite.close()
    }
  })
})
