import { SEARCH_MAX } from '@portal/shared'
import { Search } from 'lucide-react'
import { useEffect, useEffectEvent, useId, useState, type ComponentProps } from 'react'
import { useDebouncedValue } from '@/hooks/use-debounced-value'
import { cn } from './cn'

type SearchInputProps = Omit<ComponentProps<'input'>, 'type' | 'value' | 'onChange'> & {
  label: string
  /** The label for screen readers only, where the placeholder says the same on screen. */
  labelHidden?: boolean
  value: string
  onChange: (value: string) => void
}

/** The search box of every list: a magnifier, a label (shown or for screen readers), at most SEARCH_MAX characters (the server's limit). */
export function SearchInput({
  label,
  labelHidden = false,
  value,
  onChange,
  className,
  id,
  ...props
}: SearchInputProps) {
  const generated = useId()
  const inputId = id ?? generated
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={inputId} className={labelHidden ? 'sr-only' : 'text-sm font-medium text-slate-800'}>
        {label}
      </label>
      <div className="relative">
        <Search aria-hidden="true" className="pointer-events-none absolute top-2.5 left-3 size-5 text-slate-400" />
        <input
          id={inputId}
          type="search"
          maxLength={SEARCH_MAX}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          className={cn(
            'h-10 w-full rounded-md border border-slate-300 bg-white pr-3 pl-10 text-sm text-slate-900 shadow-xs',
            'placeholder:text-slate-500 focus:border-blue-600',
            className,
          )}
          {...props}
        />
      </div>
    </div>
  )
}

/**
 * A SearchInput for server-side lists: it reports the trimmed text once typing pauses
 * (SEARCH_DEBOUNCE_MS), and shows a `value` changed from outside (back and forward through the URL)
 * without reporting it back.
 */
export function DebouncedSearchInput({
  value,
  onSearch,
  ...props
}: Omit<SearchInputProps, 'onChange'> & { onSearch: (value: string) => void }) {
  const [draft, setDraft] = useState(value)
  const [shown, setShown] = useState(value)
  // Our own debounced update already matches what is typed (a trailing space included), so only
  // a value that differs from the typed text replaces it.
  if (value !== shown) {
    setShown(value)
    if (draft.trim() !== value) setDraft(value)
  }
  const settled = useDebouncedValue(draft.trim())
  const report = useEffectEvent((term: string) => {
    if (term === draft.trim() && term !== value) onSearch(term)
  })
  useEffect(() => report(settled), [settled])
  return <SearchInput {...props} value={draft} onChange={setDraft} />
}
