import type { ComponentProps } from 'react'
import { Link as RouterLink } from 'react-router'
import { cn } from './cn'

export function Link({ className, ...props }: ComponentProps<typeof RouterLink>) {
  return (
    <RouterLink className={cn('font-medium text-blue-700 underline-offset-2 hover:underline', className)} {...props} />
  )
}
