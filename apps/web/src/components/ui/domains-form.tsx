import { useState } from 'react'
import { errorMessage } from '@/lib/api-error'
import { Banner } from './banner'
import { InlineInputForm } from './inline-form'

/**
 * The e-mail domains of a single sign-on, typed separated by commas or spaces and saved as a
 * list with `save`; a refused save is said under the form.
 */
export function DomainsForm({
  domains,
  label,
  placeholder,
  submitLabel,
  save,
}: {
  domains: string[]
  label: string
  placeholder: string
  submitLabel: string
  save: { isPending: boolean; error: Error | null; mutate: (domains: string[]) => void }
}) {
  const [text, setText] = useState(domains.join(', '))
  return (
    <>
      <InlineInputForm
        className="flex max-w-2xl flex-wrap items-end gap-2"
        input={{ label, placeholder, value: text, onChange: setText }}
        submitLabel={submitLabel}
        busy={save.isPending}
        onSubmit={() => save.mutate(text.split(/[\s,]+/).filter(Boolean))}
      />
      {save.error && <Banner variant="error">{errorMessage(save.error, 'The domains were not saved.')}</Banner>}
    </>
  )
}
