import { DISPATCH_CAP_MAX } from '@portal/shared'
import type { ComponentProps } from 'react'
import { Input } from './input'

/**
 * A dispatch's registration cap: a whole number from 0 (unlimited) to the server's limit, typed
 * on a number pad. The form checks it with parseDispatchCap and says why with dispatchCapMessage.
 */
export function CapInput(props: Omit<ComponentProps<typeof Input>, 'type' | 'inputMode' | 'min' | 'max' | 'step'>) {
  return <Input type="number" inputMode="numeric" min={0} max={DISPATCH_CAP_MAX} step={1} {...props} />
}
