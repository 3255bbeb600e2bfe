import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RICH_TEXT_ATTRIBUTES, RICH_TEXT_TAGS, isAllowedImageSrc, isAllowedLinkHref } from '@portal/shared'
import { insertCourses, courseRow } from '../../modules/courses/courses.test-data'
import { buildTestApp, type TestContext } from '../helpers'
import { XSS_PAYLOADS } from './xss-payloads'

/**
 * ASVS V1.2/V1.3 (injection, sanitisation), docs/product-decisions.md D23: a description keeps only what the
 * editor's toolbar can produce. Every payload is saved through PUT /api/courses/{id}/details and
 * the stored HTML is checked tag by tag and attribute by attribute. The browser half (nothing
 * runs when the page shows it) is e2e/xss.spec.ts.
 */
let t: TestContext
let admin: { 'x-auth-token': string }
beforeAll(async () => {
  t = await buildTestApp()
  admin = (await t.loginAs('admin')).headers
  await insertCourses(t.database.db, [{ id: 'xss-course', title: 'XSS', isVisible: true }])
})
afterAll(async () => t.close())

/** What is wrong with sanitised HTML (which sanitize-html writes with quoted attributes). */
function violations(html: string): string[] {
  const found: string[] = []
  for (const [, tag, rest] of html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g)) {
    const name = tag!.toLowerCase()
    if (!(RICH_TEXT_TAGS as readonly string[]).includes(name)) found.push(`tag <${name}>`)
    for (const [, attr, value] of rest!.matchAll(/([^\s=/]+)(?:="([^"]*)")?/g)) {
      const a = attr!.toLowerCase()
      if (!(RICH_TEXT_ATTRIBUTES[name] ?? []).includes(a)) found.push(`attribute ${a} on <${name}>`)
      const decoded = (value ?? '').replace(/&amp;/g, '&')
      if (name === 'a' && a === 'href' && !isAllowedLinkHref(decoded)) found.push(`href ${decoded}`)
      if (name === 'img' && a === 'src' && !isAllowedImageSrc(decoded)) found.push(`src ${decoded}`)
    }
  }
  if (/<!--|<!\[CDATA\[/i.test(html)) found.push('comment or CDATA')
  return found
}

describe('stored XSS through the course description', () => {
  it('has at least 50 payloads', () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(50)
  })

  it('the checker itself catches what it must (control)', () => {
    expect(violations('<p onclick="x">a</p>')).toEqual(['attribute onclick on <p>'])
    expect(violations('<a href="javascript:alert(1)">a</a>')).toEqual(['href javascript:alert(1)'])
    expect(violations('<iframe src="x"></iframe>')).toContain('tag <iframe>')
  })

  it.each(XSS_PAYLOADS.map((p, i) => [i, p] as const))(
    'payload %i keeps only allowed tags and protocols',
    async (_i, payload) => {
      const description = `<p>before</p>${payload}<p>after</p>`
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/courses/xss-course/details',
        headers: admin,
        payload: { description },
      })
      expect(res.statusCode, res.body).toBe(200)
      const stored = (await courseRow(t.database.db, 'xss-course')).description
      expect(violations(stored), stored).toEqual([])
      expect(res.json().description).toBe(stored)
      expect(stored).toContain('<p>before</p>')
    },
  )

  it('keeps the toolbar’s own formatting and safe links', async () => {
    const description =
      '<h2>Title</h2><p><strong>b</strong> <a href="https://example.test/x">web</a> <a href="mailto:a@b.test">mail</a></p>'
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/courses/xss-course/details',
      headers: admin,
      payload: { description },
    })
    const stored = res.json().description as string
    expect(stored).toContain('<h2>Title</h2>')
    expect(stored).toContain('href="https://example.test/x"')
    expect(stored).toContain('href="mailto:a@b.test"')
  })
})
