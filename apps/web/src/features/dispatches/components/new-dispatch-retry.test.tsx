import { screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { makeDispatch } from '@/testing/mocks/handlers/dispatches'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, renderApp, signInAs } from '@/testing/test-utils'

beforeAll(preloadRoutes)

/**
 * New Dispatch after a failed try: SCORM Cloud may have made the dispatch and lost the answer,
 * so a retry of the same values sends the same Idempotency-Key (the server then answers with
 * that dispatch, not a conflict with itself); changed values are another submission, a new key.
 */
describe('New Dispatch retried after an error', () => {
  it('sends the same Idempotency-Key on a retry of the same values, and a new one once they change', async () => {
    signInAs('admin')
    const keys: (string | null)[] = []
    let answer = 502
    server.use(
      http.post('/api/dispatches', ({ request }) => {
        keys.push(request.headers.get('Idempotency-Key'))
        if (answer === 502) {
          return HttpResponse.json(
            { code: 'UPSTREAM_FAILED', message: 'SCORM Cloud could not be reached.' },
            { status: 502 },
          )
        }
        return HttpResponse.json(makeDispatch({ id: 'd-new', courseTitle: 'Data Protection Essentials' }), {
          status: 201,
        })
      }),
    )
    const { user } = renderApp('/dashboard')
    await user.click(await screen.findByRole('button', { name: 'New Dispatch' }))
    const dialog = within(await screen.findByRole('dialog', { name: 'New Dispatch' }))
    // The companies arrive after the form opens.
    await waitFor(() =>
      expect(within(dialog.getByRole('listbox', { name: /Company/ })).getAllByRole('option').length).toBeGreaterThan(1),
    )
    await user.selectOptions(dialog.getByRole('listbox', { name: /Company/ }), 'company-2')
    await waitFor(() =>
      expect(within(dialog.getByRole('listbox', { name: /Course/ })).getAllByRole('option').length).toBeGreaterThan(1),
    )
    await user.selectOptions(dialog.getByRole('listbox', { name: /Course/ }), 'course-2')

    await user.click(dialog.getByRole('button', { name: 'Create Dispatch' }))
    expect(await dialog.findByRole('alert')).toHaveTextContent('SCORM Cloud could not be reached.')
    await user.click(dialog.getByRole('button', { name: 'Create Dispatch' }))
    await waitFor(() => expect(keys).toHaveLength(2))
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/)
    expect(keys[1]).toBe(keys[0])

    // Other values: another submission.
    await user.type(dialog.getByLabelText('License cap'), '5')
    await user.click(dialog.getByRole('button', { name: 'Create Dispatch' }))
    await waitFor(() => expect(keys).toHaveLength(3))
    expect(keys[2]).toMatch(/^[0-9a-f]{32}$/)
    expect(keys[2]).not.toBe(keys[0])

    answer = 201
    await user.click(dialog.getByRole('button', { name: 'Create Dispatch' }))
    expect(await screen.findByText('Dispatch created.')).toBeInTheDocument()
    expect(keys[3]).toBe(keys[2])
  })

  it('keeps the key when the form is closed and opened again after an error, and forgets it after a success', async () => {
    signInAs('admin')
    const keys: (string | null)[] = []
    let answer = 502
    server.use(
      http.post('/api/dispatches', ({ request }) => {
        keys.push(request.headers.get('Idempotency-Key'))
        if (answer === 502) {
          return HttpResponse.json(
            { code: 'UPSTREAM_FAILED', message: 'SCORM Cloud could not be reached.' },
            { status: 502 },
          )
        }
        return HttpResponse.json(makeDispatch({ id: 'd-new', courseTitle: 'Data Protection Essentials' }), {
          status: 201,
        })
      }),
    )
    const { user } = renderApp('/dashboard')
    const submit = async () => {
      await user.click(await screen.findByRole('button', { name: 'New Dispatch' }))
      const dialog = within(await screen.findByRole('dialog', { name: 'New Dispatch' }))
      await user.selectOptions(dialog.getByRole('listbox', { name: /Company/ }), 'company-1')
      await waitFor(() =>
        expect(within(dialog.getByRole('listbox', { name: /Course/ })).getAllByRole('option').length).toBeGreaterThan(
          1,
        ),
      )
      await user.selectOptions(dialog.getByRole('listbox', { name: /Course/ }), 'course-2')
      await user.click(dialog.getByRole('button', { name: 'Create Dispatch' }))
      return dialog
    }
    const failed = await submit()
    expect(await failed.findByRole('alert')).toHaveTextContent('SCORM Cloud could not be reached.')
    await user.click(failed.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()

    answer = 201
    await submit()
    expect(await screen.findByText('Dispatch created.')).toBeInTheDocument()
    expect(keys).toHaveLength(2)
    expect(keys[1]).toBe(keys[0])

    // Done: the same values later are a new dispatch request.
    await submit()
    await waitFor(() => expect(keys).toHaveLength(3))
    expect(keys[2]).toMatch(/^[0-9a-f]{32}$/)
    expect(keys[2]).not.toBe(keys[0])
  })
})
