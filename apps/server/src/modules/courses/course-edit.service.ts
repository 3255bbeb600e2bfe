import {
  COURSE_EDIT_MESSAGES,
  DESCRIPTION_MAX_BYTES,
  isHttpUrl,
  type CourseDetails,
  type CourseVisibilityResponse,
  type UpdateCourseDetails,
} from '@portal/shared'
import type { Db } from '../../db/client'
import { AppError } from '../../lib/app-error'
import type { ActivityRepository } from '../activity-logs/activity.repository'
import { sanitizeDescription } from './course-description.sanitizer'
import { titleOf } from './courses.mapper'
import type { CourseDetailsUpdate, CourseRow, CoursesRepository } from './courses.repository'
import type { CourseViewer, CoursesService, RequestContext } from './courses.service'
import { auditEntry } from '../../lib/actor'

const invalid = (message: string) => new AppError('RULE_VIOLATION', message)

/** An http(s) URL, or empty for none. */
function optionalUrl(value: string, message: string): string | null {
  const url = value.trim()
  if (url === '') return null
  if (!isHttpUrl(url)) throw invalid(message)
  return url
}

/**
 * The edit form's fields as the columns they write. The title goes to title_override: the
 * provider's title is refreshed by every sync, so an admin's title lives beside it.
 */
export function toUpdate(row: CourseRow, body: UpdateCourseDetails): CourseDetailsUpdate {
  const values: CourseDetailsUpdate = {}
  if (body.title !== undefined) {
    const title = body.title.trim()
    // Empty, or the provider's own title: follow the provider again.
    values.titleOverride = title === '' || title === row.title.trim() ? null : title
  }
  if (body.imageUrl !== undefined) values.imageUrl = optionalUrl(body.imageUrl, COURSE_EDIT_MESSAGES.invalidImageUrl)
  if (body.demoUrl !== undefined) values.demoUrl = optionalUrl(body.demoUrl, COURSE_EDIT_MESSAGES.invalidDemoUrl)
  if (body.summary !== undefined) values.summary = body.summary.trim()
  if (body.duration !== undefined) values.duration = body.duration.trim()
  if (body.level !== undefined) values.level = body.level
  if (body.isRequestable !== undefined) values.isRequestable = body.isRequestable
  if (body.description !== undefined) {
    // Measured before sanitising, so a huge body costs no parsing.
    if (Buffer.byteLength(body.description, 'utf8') > DESCRIPTION_MAX_BYTES) {
      throw invalid(COURSE_EDIT_MESSAGES.descriptionTooLarge)
    }
    values.description = sanitizeDescription(body.description)
  }
  return values
}

/** Admin writes of portal-owned course fields (docs/product-rules.md §2 edit form and visibility switch). */
export function createCourseEditService(deps: {
  db: Db
  repository: CoursesRepository
  activity: ActivityRepository
  courses: CoursesService
}) {
  const { repository, activity } = deps

  return {
    async updateDetails(
      viewer: CourseViewer,
      id: string,
      body: UpdateCourseDetails,
      ctx: RequestContext,
    ): Promise<CourseDetails> {
      const row = await deps.courses.requireVisible(viewer.role, id)
      let values: CourseDetailsUpdate
      try {
        values = toUpdate(row, body)
      } catch (error) {
        await activity.record(
          auditEntry(ctx, 'COURSE_DETAIL_EDIT_FAILED', {
            courseId: id,
            courseTitle: titleOf(row),
            error: (error as Error).message,
          }),
        )
        throw error
      }
      await deps.db.transaction(async (tx) => {
        await repository.updateDetails(id, values, tx)
        await activity.record(
          auditEntry(ctx, 'COURSE_DETAIL_EDIT_SAVED', {
            courseId: id,
            courseTitle: titleOf({ ...row, ...values }),
            fields: Object.keys(values),
          }),
          tx,
        )
      })
      return deps.courses.details(viewer, id)
    },

    async setVisibility(
      viewer: CourseViewer,
      id: string,
      isVisible: boolean,
      ctx: RequestContext,
    ): Promise<CourseVisibilityResponse> {
      const row = await deps.courses.requireVisible(viewer.role, id)
      await deps.db.transaction(async (tx) => {
        await repository.setVisibility(id, isVisible, tx)
        await activity.record(
          auditEntry(ctx, 'COURSE_VISIBILITY_CHANGED', {
            courseId: id,
            courseTitle: titleOf(row),
            before: row.isVisible,
            after: isVisible,
          }),
          tx,
        )
      })
      return { id, isVisible }
    },
  }
}
export type CourseEditService = ReturnType<typeof createCourseEditService>
