import { Check, Copy } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'

/** A read-only value with a copy button; "Copied" confirms it for a moment. */
export function CopyField({ label, value, multiline = false }: { label: string; value: string; multiline?: boolean }) {
  const [copied, setCopied] = useState(false)
  const [failed, setFailed] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      setFailed(false)
      setCopied(true)
      setTimeout(() => setCopied(false), 2_000)
    } catch {
      // Without clipboard access (an insecure page, a denied permission) the value stays selectable.
      setFailed(true)
    }
  }
  return (
    <div>
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="mt-1 flex items-start gap-2">
        {multiline ? (
          <pre className="max-h-32 flex-1 overflow-auto rounded bg-slate-50 p-2 text-xs break-all whitespace-pre-wrap text-slate-900">
            {value || '—'}
          </pre>
        ) : (
          <code className="flex-1 rounded bg-slate-50 px-2 py-1 text-xs break-all text-slate-900">{value || '—'}</code>
        )}
        <Button
          variant="secondary"
          size="sm"
          onClick={() => void copy()}
          disabled={!value}
          aria-label={`Copy ${label}`}
        >
          {copied ? <Check aria-hidden="true" className="size-4" /> : <Copy aria-hidden="true" className="size-4" />}
          <span aria-live="polite">{copied ? 'Copied' : 'Copy'}</span>
        </Button>
      </dd>
      {failed && <p className="mt-1 text-xs text-red-700">Could not copy: select the value and copy it by hand.</p>}
    </div>
  )
}
