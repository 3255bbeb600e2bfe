import {
  RICH_TEXT_ATTRIBUTES,
  RICH_TEXT_CLASSES,
  RICH_TEXT_LINK_REL,
  RICH_TEXT_LINK_TARGET,
  RICH_TEXT_TAGS,
  isAllowedImageSrc,
  isAllowedLinkHref,
} from '@portal/shared'
import DOMPurify, { type DOMPurify as Purifier } from 'dompurify'

const ALLOWED_ATTR = [...new Set(Object.values(RICH_TEXT_ATTRIBUTES).flat())]

let purifier: Purifier | null = null

/**
 * Its own DOMPurify instance (hooks stay off the global one), set to the allow-list the
 * server's sanitiser uses (rules/rich-text.ts): attributes only on their own tags, links with
 * http/https/mailto/tel opening safely in a new tab, images from http/https or data URLs of
 * the listed types, Quill's class names only.
 */
function instance(): Purifier {
  if (purifier) return purifier
  const p = DOMPurify(window)
  p.addHook('uponSanitizeAttribute', (node, data) => {
    const tag = node.nodeName.toLowerCase()
    const name = data.attrName
    const allowed = RICH_TEXT_ATTRIBUTES[tag] ?? []
    if (!allowed.includes(name)) {
      data.keepAttr = false
      return
    }
    if (name === 'href') data.keepAttr = isAllowedLinkHref(data.attrValue)
    if (name === 'src') data.keepAttr = isAllowedImageSrc(data.attrValue)
    if (name === 'class') {
      const classes = data.attrValue.split(/\s+/).filter((c) => RICH_TEXT_CLASSES[tag]?.includes(c))
      data.attrValue = classes.join(' ')
      data.keepAttr = classes.length > 0
    }
    // DOMPurify's own URI check would refuse the data images we allow; ours ran above.
    if (name === 'src' && data.keepAttr) data.forceKeepAttr = true
  })
  p.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A') {
      node.setAttribute('target', RICH_TEXT_LINK_TARGET)
      node.setAttribute('rel', RICH_TEXT_LINK_REL)
    }
    // An image whose source was refused has nothing left to show (as on the server).
    if (node.nodeName === 'IMG' && !node.getAttribute('src')) node.remove()
  })
  purifier = p
  return p
}

/** docs/product-rules.md §2 / docs/product-decisions.md D23: descriptions are sanitised again when shown. */
export function sanitizeDescription(html: string): string {
  return instance().sanitize(html, {
    ALLOWED_TAGS: [...RICH_TEXT_TAGS],
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
  })
}
