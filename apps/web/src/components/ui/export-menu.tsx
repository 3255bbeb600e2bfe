import { ChevronDown, FileDown } from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'
import { Button } from './button'
import { DownloadButton } from './download-button'

export const EXPORT_FAILED = 'Failed to export the report.'

/** The formats offered, in order; the format is also the file's extension. */
const FORMATS = { csv: 'CSV', xlsx: 'Excel (.xlsx)' }

/**
 * "Export" opens a small menu of the formats (CSV, Excel .xlsx); each downloads the
 * file the server streams for exactly the screen's current filters. A disclosure, not an ARIA
 * menu: the choices are plain buttons, reached with Tab; Escape closes it and focus returns to
 * the Export button.
 */
export function ExportMenu({
  path,
  params,
  fileName,
  label = 'Export',
}: {
  path: string
  params: Record<string, string | undefined>
  /** Without the extension. */
  fileName: string
  label?: string
}) {
  const [open, setOpen] = useState(false)
  const id = useId()
  const root = useRef<HTMLDivElement>(null)
  const toggle = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    if (!open) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setOpen(false)
      // The choices go away with the menu: focus goes back to the button that opened it.
      toggle.current?.focus()
    }
    const onClick = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('keydown', onKey)
    document.addEventListener('mousedown', onClick)
    return () => {
      document.removeEventListener('keydown', onKey)
      document.removeEventListener('mousedown', onClick)
    }
  }, [open])

  return (
    <div ref={root} className="relative inline-block">
      <Button
        ref={toggle}
        variant="secondary"
        size="sm"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        <FileDown aria-hidden="true" className="size-4" />
        {label}
        <ChevronDown aria-hidden="true" className="size-4" />
      </Button>
      {open && (
        <div
          id={id}
          role="group"
          aria-label={`${label} formats`}
          className="absolute right-0 z-10 mt-1 flex w-44 flex-col gap-1 rounded-md border border-slate-200 bg-white p-2 shadow-lg"
        >
          {Object.entries(FORMATS).map(([format, formatLabel]) => (
            <DownloadButton
              key={format}
              path={path}
              params={{ ...params, format }}
              fileName={`${fileName}.${format}`}
              label={formatLabel}
              variant="ghost"
              failedText={EXPORT_FAILED}
            />
          ))}
        </div>
      )}
    </div>
  )
}
