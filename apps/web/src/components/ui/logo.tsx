import { GraduationCap } from 'lucide-react'
import { APP_NAME } from '@/config/app'
import { cn } from './cn'

export function Logo({ tone = 'dark', className }: { tone?: 'dark' | 'light'; className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold', className)}>
      <span className="flex size-9 items-center justify-center rounded-lg bg-blue-700 text-white">
        <GraduationCap aria-hidden="true" className="size-5" />
      </span>
      <span className={tone === 'light' ? 'text-white' : 'text-slate-900'}>{APP_NAME}</span>
    </span>
  )
}
