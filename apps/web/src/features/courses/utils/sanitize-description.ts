import {
  RICH_TEXT_ATTRIBUTE_NAMES,
  RICH_TEXT_LINK_ATTRIBUTES,
  RICH_TEXT_TAGS,
  isEmptyRichTextImage,
  richTextAttributeValue,
} from '@portal/shared'
import DOMPurify, { type DOMPurify as Purifier } from 'dompurify'

let purifier: Purifier | null = null

/**
 * Its own DOMPurify instance (hooks stay off the global one), applying the allow-list and the
 * attribute rule the server's sanitiser uses (rules/rich-text.ts): attributes only on their own
 * tags, links with http/https/mailto/tel opening safely in a new tab, images from http/https or
 * data URLs of the listed types, Quill's class names only.
 */
function instance(): Purifier {
  if (purifier) return purifier
  const p = DOMPurify(window)
  p.addHook('uponSanitizeAttribute', (node, data) => {
    const value = richTextAttributeValue(node.nodeName.toLowerCase(), data.attrName, data.attrValue)
    data.keepAttr = value !== null
    if (value === null) return
    data.attrValue = value
    // DOMPurify's own URI check would refuse the data images we allow; ours ran above.
    if (data.attrName === 'src') data.forceKeepAttr = true
  })
  p.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A') {
      for (const [name, value] of Object.entries(RICH_TEXT_LINK_ATTRIBUTES)) node.setAttribute(name, value)
    }
    // An image whose source was refused has nothing left to show (as on the server).
    if (isEmptyRichTextImage(node.nodeName.toLowerCase(), node.getAttribute('src'))) node.remove()
  })
  purifier = p
  return p
}

/** docs/product-rules.md §2 / docs/product-decisions.md D23: descriptions are sanitised again when shown. */
export function sanitizeDescription(html: string): string {
  return instance().sanitize(html, {
    ALLOWED_TAGS: [...RICH_TEXT_TAGS],
    ALLOWED_ATTR: [...RICH_TEXT_ATTRIBUTE_NAMES],
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
  })
}
