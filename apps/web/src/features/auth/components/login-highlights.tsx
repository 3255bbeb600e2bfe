import { BookOpen, ChartColumn, FolderKanban, Library, TrendingUp, type LucideIcon } from 'lucide-react'
import { Logo } from '@/components/ui/logo'

const HIGHLIGHTS: Array<{ icon: LucideIcon; title: string; text: string }> = [
  { icon: BookOpen, title: 'Manage courses with ease', text: 'Everything about your e-learning courses in one place.' },
  {
    icon: FolderKanban,
    title: 'View all dispatch files',
    text: 'See every dispatch and course assignment at a glance.',
  },
  { icon: ChartColumn, title: 'Access usage and completion reports', text: 'Follow licence usage and completions.' },
  { icon: Library, title: 'Browse the course catalogue', text: 'Explore the catalogue and try the course demos.' },
  { icon: TrendingUp, title: 'Track learner progress', text: 'Follow learner progress and achievements.' },
]

/** docs/product-rules.md §1: what the login page says about the product. */
export function LoginHighlights() {
  return (
    <div className="mx-auto max-w-md">
      <Logo tone="light" className="text-lg" />
      <p className="mt-8 text-2xl font-semibold leading-snug">
        Your e-learning course dispatches, reports and learners in one portal.
      </p>
      <ul className="mt-8 space-y-5">
        {HIGHLIGHTS.map(({ icon: Icon, title, text }) => (
          <li key={title} className="flex gap-3">
            <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-white/10">
              <Icon aria-hidden="true" className="size-5 text-blue-200" />
            </span>
            <span>
              <span className="block font-medium">{title}</span>
              <span className="block text-sm text-blue-100">{text}</span>
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-10 rounded-lg border border-white/20 bg-white/5 px-4 py-3 text-sm text-blue-50">
        <span className="font-semibold">Need access?</span> Contact your account manager.
      </p>
    </div>
  )
}
