import sanitizeHtml from 'sanitize-html'
import {
  RICH_TEXT_ATTRIBUTES,
  RICH_TEXT_CLASSES,
  RICH_TEXT_IMAGE_PROTOCOLS,
  RICH_TEXT_LINK_ATTRIBUTES,
  RICH_TEXT_LINK_PROTOCOLS,
  RICH_TEXT_TAGS,
  isEmptyRichTextImage,
  richTextAttributeValue,
} from '@portal/shared'

const toMutable = <T>(record: Record<string, readonly T[]>): Record<string, T[]> =>
  Object.fromEntries(Object.entries(record).map(([key, values]) => [key, [...values]]))

/**
 * docs/product-decisions.md D23: descriptions are sanitised when saved, keeping only what the editor's toolbar
 * can produce (the shared allow-list of rules/rich-text.ts). Quill 2.0.3's HTML export of
 * formula and video is open to XSS (STACK.md); neither tag survives here, whatever the browser sent.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: toMutable(RICH_TEXT_ATTRIBUTES),
  allowedClasses: toMutable(RICH_TEXT_CLASSES),
  allowedSchemes: [...RICH_TEXT_LINK_PROTOCOLS],
  allowedSchemesByTag: { img: [...RICH_TEXT_IMAGE_PROTOCOLS] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  allowedStyles: {},
  // Script, style and the like go with their content; other unknown tags leave their text.
  disallowedTagsMode: 'discard',
  // The attribute rule the browser's sanitiser applies too (rules/rich-text.ts); here links and
  // images are rebuilt from it, so the attributes come out in one order whatever the author wrote.
  transformTags: {
    a: (tagName, attribs) => {
      const safe: Record<string, string> = { ...RICH_TEXT_LINK_ATTRIBUTES }
      const href = richTextAttributeValue(tagName, 'href', attribs.href)
      if (href !== null) safe.href = href
      return { tagName, attribs: safe }
    },
    img: (tagName, attribs) => {
      const safe: Record<string, string> = {}
      // data: is allowed for images of the listed types only, never SVG or HTML.
      const src = richTextAttributeValue(tagName, 'src', attribs.src)
      if (src !== null) safe.src = src
      // An empty alt is left out rather than written as alt="".
      const alt = richTextAttributeValue(tagName, 'alt', attribs.alt)
      if (alt) safe.alt = alt
      return { tagName, attribs: safe }
    },
  },
  exclusiveFilter: (frame) => isEmptyRichTextImage(frame.tag, frame.attribs.src),
}

export function sanitizeDescription(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim()
}
