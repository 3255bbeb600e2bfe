import { describe, expect, it } from 'vitest'
import { preparedName } from './driver'

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
