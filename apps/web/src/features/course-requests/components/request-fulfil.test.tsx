import type { CourseRequest, FulfilCourseRequestBody } from '@portal/shared'
import { screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { makeCourseRequest } from '@/testing/mocks/handlers/course-requests'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, renderApp, signInAs } from '@/testing/test-utils'

beforeAll(preloadRoutes)

/** The list holds `request`; a fulfil answers it PROCESSED with the dispatch, and the list follows. */
function serve(request: CourseRequest, answer?: () => Response) {
  let stored = request
  const sent: FulfilCourseRequestBody[] = []
  server.use(
    http.get('/api/course-requests', () => HttpResponse.json([stored])),
    http.post('/api/course-requests/:id/fulfil', async ({ request: req }) => {
      sent.push((await req.json()) as FulfilCourseRequestBody)
      if (answer) return answer()
      stored = { ...stored, status: 'PROCESSED', dispatchId: 'd-9' }
      return HttpResponse.json(stored)
    }),
  )
  return sent
}

async function openModal() {
  const view = renderApp('/admin/course-requests')
  await view.user.click(await screen.findByRole('button', { name: /Edit/ }))
  return { ...view, dialog: within(screen.getByRole('dialog', { name: 'Update Request Status' })) }
}

describe('fulfilling a request from the Update Request Status modal', () => {
  it('creates the dispatch in one step and marks the request processed', async () => {
    signInAs('admin')
    const sent = serve(makeCourseRequest({ licenses: 25, companyDispatch: null }))
    const { user, dialog } = await openModal()
    expect(dialog.getByText('For Acme Learning, with 25 licenses.')).toBeInTheDocument()
    await user.click(dialog.getByRole('button', { name: 'Create dispatch' }))
    expect(await screen.findByText('Request updated successfully.')).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(sent).toEqual([{ mode: 'create', registrationCap: 25 }])
    expect(await screen.findByText('Processed', { selector: 'span' })).toBeInTheDocument()
  })

  it('offers "Add N licenses" when the company has the course, with the cap it ends at', async () => {
    signInAs('admin')
    const sent = serve(
      makeCourseRequest({ licenses: 10, companyDispatch: { id: 'd-1', registrationCap: 40, registrationCount: 38 } }),
    )
    const { user, dialog } = await openModal()
    expect(dialog.queryByRole('button', { name: 'Create dispatch' })).not.toBeInTheDocument()
    expect(dialog.getByText(/from 40 to 50/)).toBeInTheDocument()
    expect(dialog.getByRole('link', { name: 'View dispatch' })).toHaveAttribute('href', '/dispatches/d-1')
    await user.click(dialog.getByRole('button', { name: 'Add 10 licenses' }))
    expect(await screen.findByText('Request updated successfully.')).toBeInTheDocument()
    expect(sent).toEqual([{ mode: 'add', registrationCap: 50 }])
  })

  it('puts fulfilling first, with the cap editable, and sends the cap typed', async () => {
    signInAs('admin')
    const sent = serve(makeCourseRequest({ licenses: 25, companyDispatch: null }))
    const { user, dialog } = await openModal()
    const fulfil = dialog.getByRole('region', { name: 'Fulfil request' })
    const course = dialog.getByText('Course', { selector: 'dt' })
    // The fulfil section comes before the request's details in the modal.
    expect(fulfil.compareDocumentPosition(course) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    const cap = within(fulfil).getByLabelText('License cap')
    expect(cap).toHaveValue(25)
    await user.clear(cap)
    await user.type(cap, '2.5')
    expect(within(fulfil).getByText('License cap must be a whole number from 0 to 10,000,000.')).toBeInTheDocument()
    expect(within(fulfil).getByRole('button', { name: 'Create dispatch' })).toBeDisabled()
    await user.clear(cap)
    await user.type(cap, '30')
    await user.click(within(fulfil).getByRole('button', { name: 'Create dispatch' }))
    expect(await screen.findByText('Request updated successfully.')).toBeInTheDocument()
    expect(sent).toEqual([{ mode: 'create', registrationCap: 30 }])
  })

  it('keeps an unlimited dispatch unlimited: no cap to edit, none sent', async () => {
    signInAs('admin')
    const sent = serve(
      makeCourseRequest({ licenses: 10, companyDispatch: { id: 'd-1', registrationCap: 0, registrationCount: 3 } }),
    )
    const { user, dialog } = await openModal()
    expect(dialog.queryByLabelText('License cap')).not.toBeInTheDocument()
    await user.click(dialog.getByRole('button', { name: 'Add 10 licenses' }))
    expect(await screen.findByText('Request updated successfully.')).toBeInTheDocument()
    expect(sent).toEqual([{ mode: 'add' }])
  })

  it('keeps the modal open with the server message and a link to the dispatch on a 409', async () => {
    signInAs('admin')
    serve(makeCourseRequest({ companyDispatch: null }), () =>
      HttpResponse.json(
        {
          code: 'CONFLICT',
          message: 'Acme Learning already has a dispatch of Workplace Safety Basics.',
          dispatchId: 'd-1',
        },
        { status: 409 },
      ),
    )
    const { user, dialog } = await openModal()
    await user.click(dialog.getByRole('button', { name: 'Create dispatch' }))
    const alert = await dialog.findByRole('alert')
    expect(alert).toHaveTextContent('already has a dispatch of Workplace Safety Basics.')
    expect(within(alert).getByRole('link', { name: 'View the existing dispatch' })).toHaveAttribute(
      'href',
      '/dispatches/d-1',
    )
  })

  it('links a fulfilled request to its dispatch on the client’s My Course Requests', async () => {
    signInAs('client')
    server.use(
      http.get('/api/course-requests', () =>
        HttpResponse.json([
          makeCourseRequest({ status: 'PROCESSED', dispatchId: 'd-7' }),
          makeCourseRequest({ id: 'req-9' }),
        ]),
      ),
    )
    renderApp('/course-requests')
    const links = await screen.findAllByRole('link', { name: /View dispatch/ })
    expect(links).toHaveLength(1)
    expect(links[0]).toHaveAttribute('href', '/dispatches/d-7')
    expect(links[0]).toHaveAccessibleName('View dispatch of Workplace Safety Basics')
  })
})
