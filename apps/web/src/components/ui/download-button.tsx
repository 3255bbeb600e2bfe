import { Download } from 'lucide-react'
import { useState } from 'react'
import { api, type DownloadedFile } from '@/lib/api-client'
import { errorMessage } from '@/lib/api-error'
import { saveFile } from '@/lib/save-file'
import { Button, type ButtonProps } from './button'

/** docs/product-rules.md §8 style fallback when the server sends no message (downloads). */
export const DOWNLOAD_FAILED = 'Failed to download the package.'

/**
 * A button that downloads a file from the API (the token travels in its header, so the browser
 * cannot follow a plain link) and saves it under `fileName`. While it runs the button says
 * "Downloading..."; a failure shows the server's message (e.g. the provider's, on a 502) below it.
 */
export function DownloadButton({
  path,
  params,
  fileName,
  label,
  srLabel,
  variant = 'secondary',
  size = 'sm',
  failedText = DOWNLOAD_FAILED,
}: {
  path: string
  params?: Record<string, string | undefined>
  /** The name to save under when the server gives none in Content-Disposition. */
  fileName: string
  label: string
  /** Extra words for screen readers, e.g. which dispatch a row's button is for. */
  srLabel?: string
  variant?: ButtonProps['variant']
  size?: ButtonProps['size']
  /** The message when the server sends none (exports say so). */
  failedText?: string
}) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const download = async () => {
    setBusy(true)
    setError(null)
    try {
      // The server names the file for what it holds; `fileName` is the fallback.
      const file = await api.get<DownloadedFile>(path, { params, responseType: 'file' })
      saveFile(file.blob, file.fileName ?? fileName)
    } catch (failure) {
      setError(errorMessage(failure, failedText))
    } finally {
      setBusy(false)
    }
  }

  return (
    <span className="inline-flex flex-col items-start gap-1">
      <Button
        variant={variant}
        size={size}
        onClick={() => void download()}
        disabled={busy}
        aria-busy={busy}
        aria-label={srLabel ? `${busy ? 'Downloading...' : label} ${srLabel}` : undefined}
      >
        <Download aria-hidden="true" className="size-4" />
        {busy ? 'Downloading...' : label}
      </Button>
      {error && (
        <span role="alert" className="max-w-xs text-xs font-medium text-red-700">
          {error}
        </span>
      )}
    </span>
  )
}
