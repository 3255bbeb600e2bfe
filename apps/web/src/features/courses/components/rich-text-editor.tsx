import { RICH_TEXT_IMAGE_TYPES, isAllowedImageSrc } from '@portal/shared'
import Quill, { Delta } from 'quill'
import 'quill/dist/quill.snow.css'
import { useEffect, useRef } from 'react'
import { sanitizeDescription } from '../utils/sanitize-description'

/**
 * docs/product-rules.md §1 toolbar, exactly: headers 1 to 3, bold, italic, underline, strike, lists, blockquote,
 * code block, link, clean. No formula or video (Quill 2.0.3's HTML export of those is open to
 * XSS, STACK.md), and no image button: images arrive by paste or drop only.
 */
export const TOOLBAR = [
  [{ header: [1, 2, 3, false] }],
  ['bold', 'italic', 'underline', 'strike'],
  [{ list: 'ordered' }, { list: 'bullet' }],
  ['blockquote', 'code-block'],
  ['link'],
  ['clean'],
]

/** The only formats the editor keeps, whatever is pasted (indent nests lists). */
export const FORMATS = [
  'header',
  'bold',
  'italic',
  'underline',
  'strike',
  'list',
  'indent',
  'blockquote',
  'code-block',
  'link',
  'image',
]

/** docs/product-rules.md §9: undo merges edits within 1000 ms and keeps at most 100 steps. */
export const HISTORY = { delay: 1000, maxStack: 100, userOnly: true }

/**
 * Quill 2.0.3's getSemanticHTML writes every space as &nbsp; (slab/quill#4509), which stops
 * lines wrapping. Keep one plain space per run and &nbsp; only for the extra ones.
 */
export function fixSpaces(html: string): string {
  return html.replace(/(?:&nbsp;)+/g, (run) => ` ${'&nbsp;'.repeat(run.length / 6 - 1)}`)
}

function toHtml(quill: Quill): string {
  return quill.getLength() <= 1 ? '' : fixSpaces(quill.getSemanticHTML())
}

/**
 * The description editor (docs/product-rules.md §2 edit form). Loaded lazily with Quill and its CSS, so the
 * rest of the app never downloads them. Quill is created in an effect on a node this component
 * owns and removed on unmount, so React's StrictMode double mount leaves one editor.
 */
export default function RichTextEditor({
  label,
  initialValue,
  onChange,
}: {
  label: string
  initialValue: string
  onChange: (html: string) => void
}) {
  const host = useRef<HTMLDivElement>(null)
  const onChangeRef = useRef(onChange)
  const initial = useRef(initialValue)
  useEffect(() => {
    onChangeRef.current = onChange
  }, [onChange])

  useEffect(() => {
    const owner = host.current
    if (!owner) return
    const container = owner.appendChild(document.createElement('div'))
    const quill = new Quill(container, {
      theme: 'snow',
      formats: FORMATS,
      modules: {
        toolbar: TOOLBAR,
        history: HISTORY,
        // docs/product-rules.md §9: png, gif, jpeg, bmp and x-icon, embedded locally as data URLs.
        uploader: { mimetypes: [...RICH_TEXT_IMAGE_TYPES] },
      },
    })
    // Pasted images keep only sources the server keeps too (never SVG or other data URLs).
    quill.clipboard.addMatcher('IMG', (node, delta) =>
      isAllowedImageSrc((node as HTMLElement).getAttribute('src')) ? delta : new Delta(),
    )
    quill.root.setAttribute('role', 'textbox')
    quill.root.setAttribute('aria-multiline', 'true')
    quill.root.setAttribute('aria-label', label)
    quill.setContents(quill.clipboard.convert({ html: sanitizeDescription(initial.current) }), 'silent')
    quill.history.clear()
    const emit = () => onChangeRef.current(toHtml(quill))
    quill.on('text-change', emit)
    return () => {
      quill.off('text-change', emit)
      owner.replaceChildren()
    }
  }, [label])

  return (
    <div className="flex flex-col gap-1.5">
      <span className="text-sm font-medium text-slate-800">{label}</span>
      <div ref={host} className="rounded-md bg-white [&_.ql-editor]:min-h-48" />
    </div>
  )
}
