import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { makeCompanyDetail } from '@/testing/mocks/handlers/companies'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, renderApp, signInAs } from '@/testing/test-utils'

beforeAll(preloadRoutes)

async function openForm() {
  signInAs('admin')
  const view = renderApp('/dashboard')
  await view.user.click(await screen.findByRole('button', { name: 'New Dispatch' }))
  return { ...view, dialog: within(await screen.findByRole('dialog', { name: 'New Dispatch' })) }
}

const courseList = (dialog: ReturnType<typeof within>) => dialog.getByRole('listbox', { name: /Course/ })

describe('New Dispatch: the courses the company has, and messages that go once fixed', () => {
  it('marks the courses the chosen company has already and does not let them be chosen', async () => {
    server.use(
      http.get('/api/admin/companies/:id', () =>
        HttpResponse.json(
          makeCompanyDetail({
            dispatches: [
              {
                id: 'd-1',
                courseId: 'course-1',
                courseTitle: 'Workplace Safety Basics',
                created: null,
                expirationDate: null,
                licensesUsed: 1,
                licensesTotal: 10,
              },
            ],
          }),
        ),
      ),
    )
    const { user, dialog } = await openForm()
    await dialog.findByRole('option', { name: 'Acme Learning' })
    await user.selectOptions(dialog.getByRole('listbox', { name: /Company/ }), 'company-1')
    expect(
      await dialog.findByText('Acme Learning has 1 course already, marked "already dispatched" and not choosable.'),
    ).toBeInTheDocument()
    const taken = within(courseList(dialog)).getByRole('option', {
      name: 'Workplace Safety Basics (already dispatched)',
    })
    expect(taken).toBeDisabled()
    expect(taken).toHaveAttribute('title', 'Workplace Safety Basics (already dispatched)')
    expect(within(courseList(dialog)).getByRole('option', { name: 'Data Protection Essentials' })).toBeEnabled()
  })

  it('says so when the course was chosen before a company that has it, with a link to its dispatch', async () => {
    server.use(
      http.get('/api/admin/companies/:id', ({ params }) =>
        HttpResponse.json(
          makeCompanyDetail({
            id: String(params.id),
            dispatches:
              params.id === 'company-2'
                ? [
                    {
                      id: 'd-7',
                      courseId: 'course-2',
                      courseTitle: 'Data Protection Essentials',
                      created: null,
                      expirationDate: null,
                      licensesUsed: 0,
                      licensesTotal: 0,
                    },
                  ]
                : [],
          }),
        ),
      ),
    )
    const { user, dialog } = await openForm()
    await waitFor(() => expect(within(courseList(dialog)).getAllByRole('option').length).toBeGreaterThan(1))
    await user.selectOptions(courseList(dialog), 'course-2')
    expect(dialog.getByText('Selected:').parentElement).toHaveTextContent('Selected: Data Protection Essentials')
    await user.selectOptions(dialog.getByRole('listbox', { name: /Company/ }), 'company-2')
    expect(
      await dialog.findByText('Globex Training already has a dispatch of this course. Choose another course.'),
    ).toBeInTheDocument()
    expect(courseList(dialog)).toHaveAttribute('aria-invalid', 'true')
    expect(dialog.getByRole('link', { name: 'View the existing dispatch' })).toHaveAttribute('href', '/dispatches/d-7')
  })

  it('clears a field’s message as soon as the field is valid', async () => {
    const { user, dialog } = await openForm()
    await user.type(dialog.getByLabelText('License cap'), '-3')
    await user.click(dialog.getByRole('button', { name: 'Create Dispatch' }))
    expect(dialog.getByText('Choose a company.')).toBeInTheDocument()
    expect(dialog.getByText('Choose a course.')).toBeInTheDocument()
    expect(dialog.getByText('License cap must be a whole number from 0 to 10,000,000.')).toBeInTheDocument()

    await user.selectOptions(dialog.getByRole('listbox', { name: /Company/ }), 'company-2')
    expect(dialog.queryByText('Choose a company.')).not.toBeInTheDocument()
    expect(dialog.getByText('Choose a course.')).toBeInTheDocument()

    await user.clear(dialog.getByLabelText('License cap'))
    await user.type(dialog.getByLabelText('License cap'), '5')
    expect(dialog.queryByText(/License cap must be/)).not.toBeInTheDocument()
    expect(dialog.getByText('Empty or 0 means unlimited.')).toBeInTheDocument()
    expect(dialog.getByLabelText('License cap')).not.toHaveAttribute('aria-invalid')
  })
})
