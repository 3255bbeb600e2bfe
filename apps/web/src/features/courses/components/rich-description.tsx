import { useMemo } from 'react'
import { sanitizeDescription } from '../utils/sanitize-description'

/** Tailwind's preflight strips headings and lists of their look: give it back here. */
const PROSE = [
  'space-y-3 text-sm leading-6 text-slate-800 break-words',
  '[&_h1]:text-2xl [&_h1]:font-semibold [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:text-lg [&_h3]:font-semibold',
  '[&_ul]:list-disc [&_ol]:list-decimal [&_ul]:pl-6 [&_ol]:pl-6',
  '[&_blockquote]:border-l-4 [&_blockquote]:border-slate-300 [&_blockquote]:pl-4 [&_blockquote]:text-slate-600',
  '[&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-slate-900 [&_pre]:p-3 [&_pre]:text-slate-100',
  '[&_code]:font-mono [&_a]:text-blue-700 [&_a]:underline [&_img]:max-w-full',
].join(' ')

/** The course's rich-text description, sanitised in the browser before it reaches the DOM. */
export function RichDescription({ html }: { html: string }) {
  const clean = useMemo(() => sanitizeDescription(html), [html])
  if (!clean.trim()) return <p className="text-sm text-slate-600">No description available.</p>
  return (
    <div
      className={PROSE}
      // Sanitised just above with the shared allow-list (DOMPurify); the server sanitised it on save too.
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  )
}
