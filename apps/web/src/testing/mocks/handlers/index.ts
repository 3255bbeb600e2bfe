import { activityHandlers } from './activity'
import { alertHandlers } from './alerts'
import { chartHandlers } from './charts'
import { authHandlers } from './auth'
import { companyHandlers } from './companies'
import { courseRequestHandlers } from './course-requests'
import { courseHandlers } from './courses'
import { deliveryHandlers } from './delivery'
import { dispatchHandlers } from './dispatches'
import { jobHandlers } from './jobs'
import { logHandlers } from './logs'
import { reportHandlers } from './reports'
import { userHandlers } from './users'

export const handlers = [
  ...authHandlers,
  ...activityHandlers,
  ...courseHandlers, // before dispatchHandlers: /api/dispatches/courses
  ...courseRequestHandlers,
  ...userHandlers, // before dispatchHandlers: /api/dispatches/destinations
  // Before dispatchHandlers: /api/dispatches/:id/delivery and /licence-count.
  ...deliveryHandlers,
  ...dispatchHandlers,
  ...reportHandlers,
  ...companyHandlers,
  ...logHandlers,
  ...alertHandlers,
  ...chartHandlers,
  ...jobHandlers,
]
