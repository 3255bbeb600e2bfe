import { describe, expect, it } from 'vitest'
import { sanitizeDescription } from './sanitize-description'

const A = (href: string, text = 'x') =>
  `<a href="${href}" target="_blank" rel="noopener noreferrer nofollow">${text}</a>`
const BARE_A = (text = 'x') => `<a target="_blank" rel="noopener noreferrer nofollow">${text}</a>`

/** The same allow-list as the server (rules/rich-text.ts): what is shown is what could be saved. */
describe('sanitizeDescription in the browser', () => {
  it.each([
    ['script', '<p>hi<script>alert(1)</script></p>', '<p>hi</p>'],
    ['event handler', '<p onclick="alert(1)">p</p>', '<p>p</p>'],
    ['onerror image without a source', '<img src=x onerror="alert(1)">', ''],
    ['javascript: link', '<a href="javascript:alert(1)">x</a>', BARE_A()],
    ['data:text/html link', '<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>', BARE_A()],
    ['protocol-relative link', '<a href="//evil.example">x</a>', BARE_A()],
    ['iframe', '<iframe src="https://evil.example"></iframe><p>a</p>', '<p>a</p>'],
    ['svg', '<svg onload="alert(1)"><circle></circle></svg><p>a</p>', '<p>a</p>'],
    ['svg data image', '<img src="data:image/svg+xml;base64,PHN2Zz4=">', ''],
    ['style attribute', '<p style="color:red">s</p>', '<p>s</p>'],
    ['unknown class', '<p class="evil">s</p>', '<p>s</p>'],
    ['attribute on the wrong tag', '<p href="https://e.example" src="x">s</p>', '<p>s</p>'],
    ['author target and rel', '<a href="https://e.example" target="_self" rel="opener">x</a>', A('https://e.example')],
  ])('removes %s', (_name, input, expected) => {
    expect(sanitizeDescription(input)).toBe(expected)
  })

  it.each([
    ['headings', '<h1>a</h1><h2>b</h2><h3>c</h3>'],
    ['inline formats', '<p><strong>b</strong><em>i</em><u>u</u><s>s</s></p>'],
    ['lists with Quill classes', '<ol><li class="ql-indent-1">a</li></ol><ul><li>b</li></ul>'],
    ['blockquote and code', '<blockquote>q</blockquote><pre>x = 1</pre>'],
    ['links of the allowed protocols', `${A('https://e.example')}${A('mailto:a@example.com')}${A('tel:+15551234')}`],
    ['png data image', '<img src="data:image/png;base64,iVBORw0KGgo=">'],
    ['https image', '<img src="https://img.example/a.png" alt="A">'],
  ])('keeps %s', (_name, html) => {
    expect(sanitizeDescription(html)).toBe(html)
  })
})
