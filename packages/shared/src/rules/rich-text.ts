/**
 * The course description allow-list (docs/product-rules.md §1, docs/product-decisions.md D23): only what the editor's toolbar
 * can produce, plus pasted or dropped images of the listed types. The server's sanitiser
 * (sanitize-html) and the browser's (DOMPurify) both read these lists and apply the attribute
 * rule below (richTextAttributeValue), so they cannot drift.
 */

/** docs/product-rules.md §9: the editor embeds images of these types as data URLs. */
export const RICH_TEXT_IMAGE_TYPES = ['image/png', 'image/gif', 'image/jpeg', 'image/bmp', 'image/x-icon'] as const

/** docs/product-rules.md §1: links allow only these protocols. */
export const RICH_TEXT_LINK_PROTOCOLS = ['http', 'https', 'mailto', 'tel'] as const
export const RICH_TEXT_IMAGE_PROTOCOLS = ['http', 'https', 'data'] as const

export const RICH_TEXT_TAGS = [
  'h1',
  'h2',
  'h3',
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'strike',
  'ol',
  'ul',
  'li',
  'blockquote',
  'pre',
  'code',
  'a',
  'img',
] as const

/** Attributes per tag; `class` only with the Quill names of RICH_TEXT_CLASSES. */
export const RICH_TEXT_ATTRIBUTES: Record<string, readonly string[]> = {
  a: ['href', 'target', 'rel'],
  img: ['src', 'alt'],
  li: ['class'],
  ol: ['class'],
  ul: ['class'],
  pre: ['class'],
}

/** Quill's own class names for nested lists and code blocks (the toolbar's indent and code). */
export const RICH_TEXT_CLASSES: Record<string, readonly string[]> = {
  li: [
    'ql-indent-1',
    'ql-indent-2',
    'ql-indent-3',
    'ql-indent-4',
    'ql-indent-5',
    'ql-indent-6',
    'ql-indent-7',
    'ql-indent-8',
  ],
  ol: ['ql-indent-1', 'ql-indent-2', 'ql-indent-3'],
  ul: ['ql-indent-1', 'ql-indent-2', 'ql-indent-3'],
  pre: ['ql-syntax'],
}

/** Every link opens in a new tab without handing the opener or the referrer over. */
export const RICH_TEXT_LINK_TARGET = '_blank'
export const RICH_TEXT_LINK_REL = 'noopener noreferrer nofollow'

/** docs/product-rules.md §1: link protocols http, https, mailto, tel. Relative and protocol-relative links are refused. */
export function isAllowedLinkHref(href: string | null | undefined): boolean {
  const value = (href ?? '').trim()
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(value)
  if (!match) return false
  return (RICH_TEXT_LINK_PROTOCOLS as readonly string[]).includes(match[1]!.toLowerCase())
}

const DATA_IMAGE = /^data:(image\/(?:png|gif|jpeg|bmp|x-icon));base64,[a-z0-9+/=\s]+$/i

/** Image sources: http, https, or a base64 data URL of one of RICH_TEXT_IMAGE_TYPES (never SVG). */
export function isAllowedImageSrc(src: string | null | undefined): boolean {
  const value = (src ?? '').trim()
  if (/^https?:\/\/[^\s]+$/i.test(value)) return true
  return DATA_IMAGE.test(value)
}

/** Every attribute name some tag of the allow-list may keep (DOMPurify takes one flat list). */
export const RICH_TEXT_ATTRIBUTE_NAMES: readonly string[] = [...new Set(Object.values(RICH_TEXT_ATTRIBUTES).flat())]

/** What every link carries, whatever target and rel the author wrote. */
export const RICH_TEXT_LINK_ATTRIBUTES: Readonly<Record<'target' | 'rel', string>> = {
  target: RICH_TEXT_LINK_TARGET,
  rel: RICH_TEXT_LINK_REL,
}

/**
 * The one attribute rule both sanitisers apply: the value an attribute keeps on its tag, or null
 * where it goes. Attributes only on their own tags, links and image sources of the allowed
 * protocols (trimmed), and of `class` only Quill's names for that tag.
 */
export function richTextAttributeValue(tag: string, name: string, value: string | undefined): string | null {
  if (value === undefined || !(RICH_TEXT_ATTRIBUTES[tag] ?? []).includes(name)) return null
  if (name === 'href') return isAllowedLinkHref(value) ? value.trim() : null
  if (name === 'src') return isAllowedImageSrc(value) ? value.trim() : null
  if (name === 'class') {
    const classes = value.split(/\s+/).filter((c) => RICH_TEXT_CLASSES[tag]?.includes(c))
    return classes.length > 0 ? classes.join(' ') : null
  }
  return value
}

/** An image whose source was refused has nothing left to show: both sanitisers drop it. */
export function isEmptyRichTextImage(tag: string, src: string | null | undefined): boolean {
  return tag === 'img' && !src
}

/** An http or https URL (the edit form's demoUrl and imageUrl). */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}
