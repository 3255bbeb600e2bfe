import { describe, expect, it } from 'vitest'
import {
  isAllowedImageSrc,
  isAllowedLinkHref,
  isEmptyRichTextImage,
  isHttpUrl,
  richTextAttributeValue,
} from './rich-text'

describe('rich-text allow-list (docs/product-rules.md §1)', () => {
  it.each([
    ['https://example.com', true],
    ['http://example.com/a?b=c', true],
    ['mailto:a@example.com', true],
    ['tel:+15551234', true],
    ['HTTPS://EXAMPLE.COM', true],
    ['javascript:alert(1)', false],
    [' JavaScript:alert(1)', false],
    ['data:text/html,<script>', false],
    ['vbscript:x', false],
    ['//evil.example', false],
    ['/relative', false],
    ['', false],
  ])('link %j → %s', (href, expected) => {
    expect(isAllowedLinkHref(href)).toBe(expected)
  })

  it.each([
    ['https://img.example/a.png', true],
    ['http://img.example/a.png', true],
    ['data:image/png;base64,iVBORw0KGgo=', true],
    ['data:image/gif;base64,R0lGOD==', true],
    ['data:image/jpeg;base64,/9j/4AAQ', true],
    ['data:image/bmp;base64,Qk0=', true],
    ['data:image/x-icon;base64,AAAB', true],
    ['data:image/svg+xml;base64,PHN2Zz4=', false],
    ['data:image/webp;base64,UklGR', false],
    ['data:image/png,<svg>', false],
    ['data:text/html;base64,PHNjcmlwdD4=', false],
    ['javascript:alert(1)', false],
    ['x', false],
  ])('image %j → %s', (src, expected) => {
    expect(isAllowedImageSrc(src)).toBe(expected)
  })

  it.each([
    ['https://demo.example/c', true],
    ['http://localhost:3000/x', true],
    ['ftp://example.com', false],
    ['javascript:alert(1)', false],
    ['https://', false],
    ['not a url', false],
  ])('http url %j → %s', (value, expected) => {
    expect(isHttpUrl(value)).toBe(expected)
  })
})

describe('the attribute rule both sanitisers apply', () => {
  it.each([
    ['a', 'href', ' https://e.example ', 'https://e.example'],
    ['a', 'href', 'javascript:alert(1)', null],
    ['p', 'href', 'https://e.example', null],
    ['img', 'src', 'data:image/png;base64,AAAA', 'data:image/png;base64,AAAA'],
    ['img', 'src', 'data:image/svg+xml;base64,AAAA', null],
    ['img', 'alt', 'A', 'A'],
    ['li', 'class', 'ql-indent-1 evil', 'ql-indent-1'],
    ['li', 'class', 'evil', null],
    ['p', 'class', 'ql-indent-1', null],
    ['p', 'style', 'color:red', null],
    ['a', 'href', undefined, null],
  ])('%s %s=%j → %j', (tag, name, value, expected) => {
    expect(richTextAttributeValue(tag, name, value)).toBe(expected)
  })

  it('drops only an image without a source', () => {
    expect(isEmptyRichTextImage('img', '')).toBe(true)
    expect(isEmptyRichTextImage('img', null)).toBe(true)
    expect(isEmptyRichTextImage('img', 'https://e.example/a.png')).toBe(false)
    expect(isEmptyRichTextImage('p', null)).toBe(false)
  })
})
