import type { CourseDetails } from '@portal/shared'
import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { makeCourseDetails } from '@/testing/mocks/handlers/courses'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, recordRequests, renderApp, requestsTo, signInAs } from '@/testing/test-utils'
import { fixSpaces } from './rich-text-editor'

const ADMIN_DETAILS: Partial<CourseDetails> = {
  appSource: '7',
  demoUrl: 'https://demo.example/old',
  level: 'Beginner',
  stats: { totalRegistrations: 0, activeDispatches: 0, totalDispatches: 0 },
  dispatches: [],
}

async function openEditor() {
  signInAs('admin')
  server.use(
    http.get('/api/courses/:id/details', ({ params }) =>
      HttpResponse.json(makeCourseDetails({ id: String(params.id), ...ADMIN_DETAILS })),
    ),
  )
  const view = renderApp('/courses/course-1')
  await view.user.click(await screen.findByRole('button', { name: 'Edit Course' }))
  // The editor's chunk (Quill) loads lazily.
  expect(await screen.findByRole('textbox', { name: 'Description' }, { timeout: 5000 })).toBeInTheDocument()
  return view
}

beforeAll(preloadRoutes)

describe('edit form (admin)', () => {
  it('offers exactly the product-rules toolbar and no image, video or formula button', async () => {
    await openEditor()
    const toolbar = document.querySelector('.ql-toolbar')!
    const buttons = [...toolbar.querySelectorAll('button')].map((b) => `${b.className}${b.value ? `=${b.value}` : ''}`)
    expect(buttons).toEqual([
      'ql-bold',
      'ql-italic',
      'ql-underline',
      'ql-strike',
      'ql-list=ordered',
      'ql-list=bullet',
      'ql-blockquote',
      'ql-code-block',
      'ql-link',
      'ql-clean',
    ])
    expect(toolbar.querySelector('select.ql-header')).not.toBeNull()
    expect(toolbar.querySelector('.ql-image, .ql-video, .ql-formula')).toBeNull()
  })

  it('loads the fields, saves them and says so', async () => {
    const { user } = await openEditor()
    const log = recordRequests()
    expect(screen.getByLabelText('Title')).toHaveValue('Workplace Safety Basics')
    expect(screen.getByLabelText('Level')).toHaveValue('Beginner')
    expect(screen.getByLabelText('Demo URL')).toHaveValue('https://demo.example/old')
    expect(screen.getByLabelText('Requestable by clients')).toBeChecked()
    expect(screen.getByRole('textbox', { name: 'Description' }).innerHTML).toContain('<strong>basics</strong>')

    await user.clear(screen.getByLabelText('Title'))
    await user.type(screen.getByLabelText('Title'), 'Safety First')
    await user.selectOptions(screen.getByLabelText('Level'), 'Advanced')
    await user.click(screen.getByLabelText('Requestable by clients'))
    await user.clear(screen.getByLabelText('Demo URL'))
    await user.type(screen.getByLabelText('Demo URL'), 'https://demo.example/new')
    await user.click(screen.getByRole('button', { name: 'Save Changes' }))

    expect(await screen.findByText('Course details updated successfully!')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Save Changes' })).not.toBeInTheDocument()
    expect(requestsTo(log, '/api/courses/course-1/details').at(-1)?.body).toEqual({
      title: 'Safety First',
      imageUrl: '',
      summary: 'Stay safe at work.',
      description: '<p>Learn the <strong>basics</strong>.</p>',
      duration: '45 minutes',
      level: 'Advanced',
      isRequestable: false,
      demoUrl: 'https://demo.example/new',
    })
  })

  it('shows the server message, or the default text, and keeps the form open', async () => {
    const { user } = await openEditor()
    server.use(
      http.put('/api/courses/:id/details', () =>
        HttpResponse.json({ message: 'Demo URL must be an http or https URL.' }, { status: 400 }),
      ),
    )
    await user.click(screen.getByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Demo URL must be an http or https URL.')
    server.use(http.put('/api/courses/:id/details', () => HttpResponse.json({}, { status: 500 })))
    await user.click(screen.getByRole('button', { name: 'Save Changes' }))
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Failed to update course details. Please try again.'),
    )
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeInTheDocument()
  })

  it('closes without saving on Cancel', async () => {
    const { user } = await openEditor()
    const log = recordRequests()
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.getByRole('button', { name: 'Edit Course' })).toBeInTheDocument()
    expect(requestsTo(log, '/api/courses/course-1/details').filter((r) => r.method === 'PUT')).toEqual([])
  })
})

describe('fixSpaces (Quill 2.0.3 writes every space as &nbsp;)', () => {
  it.each([
    ['<p>a&nbsp;b&nbsp;c</p>', '<p>a b c</p>'],
    ['<p>a&nbsp;&nbsp;&nbsp;b</p>', '<p>a &nbsp;&nbsp;b</p>'],
    ['<p>a&amp;nbsp;b</p>', '<p>a&amp;nbsp;b</p>'],
  ])('%s → %s', (input, expected) => {
    expect(fixSpaces(input)).toBe(expected)
  })
})
