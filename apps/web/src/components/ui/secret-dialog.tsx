import { useState, type ReactNode } from 'react'
import { Button } from './button'
import { Modal } from './modal'

/**
 * A secret shown in full (an API key once created, a webhook's signing secret) with a copy button:
 * `intro` above it, `children` below.
 */
export function SecretDialog({
  title,
  secret,
  secretName,
  copyLabel,
  intro,
  children,
  onClose,
}: {
  title: string
  secret: string
  /** The accessible name of the secret's text. */
  secretName: string
  copyLabel: string
  intro: ReactNode
  children?: ReactNode
  onClose: () => void
}) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    await navigator.clipboard?.writeText(secret)
    setCopied(true)
  }
  return (
    <Modal title={title} onClose={onClose} footer={<Button onClick={onClose}>Done</Button>}>
      <div className="space-y-3">
        {intro}
        <code aria-label={secretName} className="block rounded bg-slate-100 p-3 text-xs break-all text-slate-900">
          {secret}
        </code>
        <Button variant="secondary" size="sm" onClick={() => void copy()}>
          {copied ? 'Copied' : copyLabel}
        </Button>
        {children}
      </div>
    </Modal>
  )
}
