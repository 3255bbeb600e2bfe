import { useState, type ReactNode } from 'react'
import { InlineInputForm } from './inline-form'

/**
 * The e-mail domains of a single sign-on, typed separated by commas or spaces and saved as a
 * list with `save`. `children` follow the submit button.
 */
export function DomainsForm({
  domains,
  label,
  placeholder,
  submitLabel,
  save,
  children,
}: {
  domains: string[]
  label: string
  placeholder: string
  submitLabel: string
  save: { isPending: boolean; mutate: (domains: string[]) => void }
  children?: ReactNode
}) {
  const [text, setText] = useState(domains.join(', '))
  return (
    <InlineInputForm
      className="flex max-w-2xl flex-wrap items-end gap-2"
      input={{ label, placeholder, value: text, onChange: setText }}
      submitLabel={submitLabel}
      busy={save.isPending}
      onSubmit={() => save.mutate(text.split(/[\s,]+/).filter(Boolean))}
    >
      {children}
    </InlineInputForm>
  )
}
