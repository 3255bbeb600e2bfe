import type { CourseRequest, CreateCourseRequest, UpdateCourseRequestStatus } from '@portal/shared'
import { http, HttpResponse } from 'msw'
import { fixtureBuilder } from '../fixture'

export const makeCourseRequest = fixtureBuilder<CourseRequest>(() => ({
  id: 'req-1',
  courseId: 'course-1',
  courseTitle: 'Workplace Safety Basics',
  licenses: 5,
  notes: 'For the new starters.',
  status: 'PENDING',
  adminNotes: '',
  demoUrl: null,
  createdAt: '2026-03-02T09:15:00.000Z',
  updatedAt: '2026-03-02T09:15:00.000Z',
  userName: 'Cleo Client',
  userEmail: 'client@example.com',
  companyId: 'company-1',
  companyName: 'Acme Learning',
}))

export const courseRequestFixtures: CourseRequest[] = [
  makeCourseRequest(),
  makeCourseRequest({
    id: 'req-2',
    courseId: 'course-2',
    courseTitle: 'Data Protection Essentials',
    licenses: 2,
    status: 'PROCESSED',
    adminNotes: 'Demo is ready.',
    demoUrl: 'https://demo.example/course-2',
    createdAt: '2026-03-03T14:00:00.000Z',
    userName: 'Gus Globex',
    userEmail: 'gus@globex.example',
    companyId: 'company-2',
    companyName: 'Globex Training',
  }),
  makeCourseRequest({
    id: 'req-3',
    courseId: 'course-3',
    courseTitle: 'Leadership Foundations',
    licenses: 10,
    notes: '',
    status: 'COMPLETED',
    createdAt: '2026-03-04T08:00:00.000Z',
    userName: 'Nina Nocompany',
    userEmail: 'nina@example.com',
    companyId: null,
    companyName: null,
  }),
]

export const courseRequestHandlers = [
  http.get('/api/course-requests', () => HttpResponse.json(courseRequestFixtures)),
  http.post<never, CreateCourseRequest>('/api/course-requests', async ({ request }) => {
    const body = await request.json()
    return HttpResponse.json(
      makeCourseRequest({ id: 'req-new', courseId: body.courseId, licenses: Number(body.licenses) || 1 }),
      { status: 201 },
    )
  }),
  http.put<{ id: string }, UpdateCourseRequestStatus>(
    '/api/course-requests/:id/status',
    async ({ params, request }) => {
      const body = await request.json()
      return HttpResponse.json(
        makeCourseRequest({ id: params.id, status: body.status, adminNotes: body.adminNotes ?? '' }),
      )
    },
  ),
]
