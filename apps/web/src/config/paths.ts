/** Every route string of docs/product-rules.md §2, in one place. Screens link with getHref, the router uses path. */
const id = (value: string) => encodeURIComponent(value)

export const paths = {
  home: { path: '/', getHref: () => '/' },
  login: { path: '/login', getHref: () => '/login' },
  dashboard: { path: '/dashboard', getHref: () => '/dashboard' },
  dispatch: { path: '/dispatches/:id', getHref: (dispatchId: string) => `/dispatches/${id(dispatchId)}` },
  courses: { path: '/courses', getHref: () => '/courses' },
  course: {
    path: '/courses/:id',
    /** docs/product-rules.md §2: `request=true` opens the request form at once. */
    getHref: (courseId: string, options?: { request?: boolean }) =>
      `/courses/${id(courseId)}${options?.request ? '?request=true' : ''}`,
  },
  courseRequests: { path: '/course-requests', getHref: () => '/course-requests' },
  adminCourseRequests: { path: '/admin/course-requests', getHref: () => '/admin/course-requests' },
  companies: { path: '/admin/companies', getHref: () => '/admin/companies' },
  company: { path: '/admin/companies/:id', getHref: (companyId: string) => `/admin/companies/${id(companyId)}` },
  user: { path: '/admin/users/:id', getHref: (userId: string) => `/admin/users/${id(userId)}` },
  settings: { path: '/settings', getHref: () => '/settings' },
  logs: { path: '/logs', getHref: () => '/logs' },
  // Profile and the admin's mail outbox.
  profile: { path: '/profile', getHref: () => '/profile' },
  outbox: { path: '/admin/outbox', getHref: () => '/admin/outbox' },
  // The background jobs (admin).
  jobs: { path: '/admin/jobs', getHref: () => '/admin/jobs' },
  // API keys: an admin's and a client company's.
  apiKeys: { path: '/integrations/api-keys', getHref: () => '/integrations/api-keys' },
  // Outgoing webhooks: an admin's and a client company's.
  webhooks: { path: '/integrations/webhooks', getHref: () => '/integrations/webhooks' },
  // Every learner of a company.
  learners: { path: '/learners', getHref: () => '/learners' },
  // A company's monthly usage statements.
  statements: { path: '/statements', getHref: () => '/statements' },
} as const
