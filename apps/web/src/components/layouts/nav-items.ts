import { can, type Role } from '@portal/shared'
import {
  BookOpen,
  Building2,
  ClipboardList,
  GraduationCap,
  KeyRound,
  LayoutDashboard,
  Receipt,
  ListChecks,
  ScrollText,
  Settings,
  Webhook,
  type LucideIcon,
} from 'lucide-react'
import { paths } from '@/config/paths'

export type NavItem = { name: string; to: string; icon: LucideIcon }

/** docs/product-rules.md §2 nav items, decided by the shared permission table (docs/product-rules.md §6). */
export function navItemsFor(role: Role): NavItem[] {
  const items: NavItem[] = [
    { name: 'Dashboard', to: paths.dashboard.getHref(), icon: LayoutDashboard },
    { name: 'Courses', to: paths.courses.getHref(), icon: BookOpen },
  ]
  if (can(role, 'courseRequest.readAll')) {
    items.push({ name: 'Course Requests', to: paths.adminCourseRequests.getHref(), icon: ClipboardList })
  } else if (can(role, 'courseRequest.readOwn')) {
    items.push({ name: 'Course Requests', to: paths.courseRequests.getHref(), icon: ClipboardList })
  }
  // Every role's learners (a client its company's; staff pick one).
  if (can(role, 'learner.read')) items.push({ name: 'Learners', to: paths.learners.getHref(), icon: GraduationCap })
  if (can(role, 'statement.read')) items.push({ name: 'Statements', to: paths.statements.getHref(), icon: Receipt })
  if (can(role, 'company.read')) items.push({ name: 'Companies', to: paths.companies.getHref(), icon: Building2 })
  if (can(role, 'log.read')) items.push({ name: 'Logs', to: paths.logs.getHref(), icon: ScrollText })
  if (can(role, 'apiKey.manage')) items.push({ name: 'API keys', to: paths.apiKeys.getHref(), icon: KeyRound })
  if (can(role, 'webhook.manage')) items.push({ name: 'Webhooks', to: paths.webhooks.getHref(), icon: Webhook })
  if (can(role, 'user.manage')) items.push({ name: 'Settings', to: paths.settings.getHref(), icon: Settings })
  if (can(role, 'jobs.manage')) items.push({ name: 'Jobs', to: paths.jobs.getHref(), icon: ListChecks })
  return items
}
