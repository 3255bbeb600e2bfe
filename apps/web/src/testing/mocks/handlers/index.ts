import { activityHandlers } from './activity'
import { alertHandlers } from './alerts' // issue #17
import { chartHandlers } from './charts' // issue #16 charts
import { authHandlers } from './auth'
import { companyHandlers } from './companies' // issue #6
import { courseRequestHandlers } from './course-requests'
import { courseHandlers } from './courses'
import { dispatchHandlers } from './dispatches'
import { logHandlers } from './logs' // issue #6
import { reportHandlers } from './reports'
import { userHandlers } from './users' // issue #6

export const handlers = [
  ...authHandlers,
  ...activityHandlers,
  ...courseHandlers, // before dispatchHandlers: /api/dispatches/courses
  ...courseRequestHandlers,
  ...userHandlers, // issue #6; before dispatchHandlers: /api/dispatches/destinations
  ...dispatchHandlers,
  ...reportHandlers,
  ...companyHandlers, // issue #6
  ...logHandlers, // issue #6
  ...alertHandlers, // issue #17
  ...chartHandlers, // issue #16 charts
]
