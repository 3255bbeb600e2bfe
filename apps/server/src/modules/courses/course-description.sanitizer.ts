import sanitizeHtml from 'sanitize-html'
import {
  RICH_TEXT_ATTRIBUTES,
  RICH_TEXT_CLASSES,
  RICH_TEXT_IMAGE_PROTOCOLS,
  RICH_TEXT_LINK_PROTOCOLS,
  RICH_TEXT_LINK_REL,
  RICH_TEXT_LINK_TARGET,
  RICH_TEXT_TAGS,
  isAllowedImageSrc,
  isAllowedLinkHref,
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
  transformTags: {
    a: (tagName, attribs) => {
      const href = attribs.href
      const safe: Record<string, string> = { target: RICH_TEXT_LINK_TARGET, rel: RICH_TEXT_LINK_REL }
      if (isAllowedLinkHref(href)) safe.href = href!.trim()
      return { tagName, attribs: safe }
    },
    img: (tagName, attribs) => {
      const src = attribs.src
      const safe: Record<string, string> = {}
      // data: is allowed for images of the listed types only, never SVG or HTML.
      if (isAllowedImageSrc(src)) safe.src = src!.trim()
      if (attribs.alt) safe.alt = attribs.alt
      return { tagName, attribs: safe }
    },
  },
  // An image whose source was refused has nothing left to show.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
}

export function sanitizeDescription(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim()
}
