import type { FormEvent } from 'react'

/** A form's onSubmit that stays on the page (no browser submit) and runs `submit`: a button or Enter in a field. */
export const submitHandler = (submit: () => void) => (event: FormEvent) => {
  event.preventDefault()
  submit()
}
