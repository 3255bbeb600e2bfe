import type {
  Course,
  CourseDetails,
  CourseListResponse,
  CourseSyncResponse,
  UpdateCourseDetails,
  UpdateCourseVisibility,
} from '@portal/shared'
import { http, HttpResponse } from 'msw'
import { fixtureBuilder } from '../fixture'

export const makeCourse = fixtureBuilder<Course>(() => ({
  id: 'course-1',
  title: 'Workplace Safety Basics',
  summary: 'Stay safe at work.',
  description: '<p>Learn the <strong>basics</strong>.</p>',
  imageUrl: null,
  version: '2',
  duration: '45 minutes',
  level: 'Beginner',
  tags: ['safety', 'onboarding'],
  created: '2026-01-10T09:30:00.000Z',
  updated: '2026-02-14T16:45:00.000Z',
  registrationCount: 42,
  isVisible: true,
  isRequestable: true,
}))

export const courseFixtures: Course[] = [
  makeCourse(),
  makeCourse({
    id: 'course-2',
    title: 'Data Protection Essentials',
    tags: ['privacy', 'gdpr', 'compliance', 'legal', 'security'],
    registrationCount: 7,
    updated: '2026-03-01T10:00:00.000Z',
  }),
  makeCourse({
    id: 'course-3',
    title: 'leadership Foundations',
    tags: ['management'],
    registrationCount: 120,
    updated: null,
    version: '1.0',
  }),
]

export function makeCourseList(courses: Course[] = courseFixtures, lastSyncedAt: string | null = null) {
  return { courses, lastSyncedAt } satisfies CourseListResponse
}

export function makeCourseDetails(overrides: Partial<CourseDetails> = {}): CourseDetails {
  return { ...makeCourse(), ...overrides }
}

export const courseSyncResponse: CourseSyncResponse = {
  success: true,
  message: 'Courses synced successfully!',
  courseCount: 3,
}

/** Plain fixtures; each test states the role-specific answer it needs with server.use(). */
export const courseHandlers = [
  http.get('/api/dispatches/courses', () => HttpResponse.json(makeCourseList())),
  http.get('/api/dispatches/courses/sync', () => HttpResponse.json(courseSyncResponse)),
  http.get<{ id: string }>('/api/courses/:id/details', ({ params }) =>
    HttpResponse.json(makeCourseDetails({ id: params.id })),
  ),
  http.put<{ id: string }, UpdateCourseDetails>('/api/courses/:id/details', async ({ params, request }) =>
    HttpResponse.json(makeCourseDetails({ id: params.id, ...(await request.json()) } as Partial<CourseDetails>)),
  ),
  http.put<{ id: string }, UpdateCourseVisibility>('/api/courses/:id/visibility', async ({ params, request }) =>
    HttpResponse.json({ id: params.id, isVisible: (await request.json()).isVisible }),
  ),
]
