import { useMemo, type ComponentType } from 'react'
import { Navigate, RouterProvider, createBrowserRouter, type RouteObject } from 'react-router'
import { RouteError } from '@/components/errors/route-error'
import { PageSpinner } from '@/components/ui/spinner'
import { paths } from '@/config/paths'

type RouteModule = () => Promise<{ default: ComponentType }>

/** Each screen is its own chunk, loaded on first visit (docs/architecture.md: routes are lazy-loaded). */
export const routeModules = {
  login: () => import('./routes/login'),
  appRoot: () => import('./routes/app-root'),
  dashboard: () => import('./routes/dashboard'),
  dispatch: () => import('./routes/dispatch'),
  courses: () => import('./routes/courses'),
  course: () => import('./routes/course'),
  courseRequests: () => import('./routes/course-requests'),
  adminCourseRequests: () => import('./routes/admin-course-requests'),
  companies: () => import('./routes/companies'),
  company: () => import('./routes/company'),
  user: () => import('./routes/user'),
  settings: () => import('./routes/settings'),
  logs: () => import('./routes/logs'),
  profile: () => import('./routes/profile'),
  outbox: () => import('./routes/admin-outbox'),
  jobs: () => import('./routes/admin-jobs'),
  apiKeys: () => import('./routes/api-keys'),
  webhooks: () => import('./routes/webhooks'),
  learners: () => import('./routes/learners'),
  statements: () => import('./routes/statements'),
  notFound: () => import('./routes/not-found'),
} satisfies Record<string, RouteModule>

const lazyRoute = (load: RouteModule) => async () => ({ Component: (await load()).default })

const screen = (path: string, load: RouteModule): RouteObject => ({
  path,
  lazy: lazyRoute(load),
  errorElement: <RouteError />,
})

/** docs/product-rules.md §2 route table. */
export function createRoutes(): RouteObject[] {
  const m = routeModules
  return [
    {
      HydrateFallback: PageSpinner,
      errorElement: <RouteError />,
      children: [
        screen(paths.login.path, m.login),
        {
          path: paths.home.path,
          lazy: lazyRoute(m.appRoot),
          children: [
            { index: true, element: <Navigate to={paths.dashboard.getHref()} replace /> },
            screen(paths.dashboard.path, m.dashboard),
            screen(paths.dispatch.path, m.dispatch),
            screen(paths.courses.path, m.courses),
            screen(paths.course.path, m.course),
            screen(paths.courseRequests.path, m.courseRequests),
            screen(paths.adminCourseRequests.path, m.adminCourseRequests),
            screen(paths.companies.path, m.companies),
            screen(paths.company.path, m.company),
            screen(paths.user.path, m.user),
            screen(paths.settings.path, m.settings),
            screen(paths.logs.path, m.logs),
            screen(paths.profile.path, m.profile),
            screen(paths.outbox.path, m.outbox),
            screen(paths.jobs.path, m.jobs),
            screen(paths.apiKeys.path, m.apiKeys),
            screen(paths.webhooks.path, m.webhooks),
            screen(paths.learners.path, m.learners),
            screen(paths.statements.path, m.statements),
          ],
        },
        screen('*', m.notFound),
      ],
    },
  ]
}

export function AppRouter() {
  const router = useMemo(() => createBrowserRouter(createRoutes()), [])
  return <RouterProvider router={router} />
}
