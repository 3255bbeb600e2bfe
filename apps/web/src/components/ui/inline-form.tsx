import type { ComponentProps, FormEvent, ReactNode } from 'react'
import { Button } from './button'
import { Input } from './input'

/**
 * A one-field form: a wide text input and its submit button on one row (the button wraps below on
 * narrow screens). `onSubmit` runs on the button and on Enter; `children` follow the button.
 */
export function InlineInputForm({
  input,
  submitLabel,
  submitVariant = 'primary',
  busy,
  onSubmit,
  className,
  children,
}: {
  input: Omit<ComponentProps<typeof Input>, 'onChange'> & { onChange: (value: string) => void }
  submitLabel: string
  submitVariant?: ComponentProps<typeof Button>['variant']
  busy: boolean
  onSubmit: () => void
  className: string
  children?: ReactNode
}) {
  const { onChange, ...inputProps } = input
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSubmit()
  }
  return (
    <form className={className} onSubmit={submit}>
      <div className="min-w-72 flex-1">
        <Input {...inputProps} onChange={(e) => onChange(e.target.value)} />
      </div>
      <Button type="submit" variant={submitVariant} disabled={busy}>
        {submitLabel}
      </Button>
      {children}
    </form>
  )
}

/**
 * A checkbox with its label; `tall`, as tall as the fields beside it in a row of filters or options.
 * `className` goes to the box.
 */
export function CheckboxField({
  label,
  checked,
  onChange,
  className,
  tall = true,
}: {
  label: string
  checked: boolean
  onChange: (checked: boolean) => void
  className?: string
  tall?: boolean
}) {
  return (
    <label
      className={
        tall ? 'flex h-10 items-center gap-2 text-sm text-slate-800' : 'flex items-center gap-2 text-sm text-slate-800'
      }
    >
      <input type="checkbox" className={className} checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  )
}
