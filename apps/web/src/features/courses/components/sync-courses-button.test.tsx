import { fireEvent, screen } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { server } from '@/testing/mocks/server'
import { advance, pollUntil, preloadRoutes, renderApp, signInAs } from '@/testing/test-utils'

const SYNC = '/api/dispatches/courses/sync'

async function openCatalogueWithFakeTimers() {
  signInAs('admin')
  vi.useFakeTimers({ shouldAdvanceTime: true })
  renderApp('/courses')
  await pollUntil(() => expect(screen.getAllByRole('article').length).toBeGreaterThan(0))
}

const syncAndRead = async (role: 'status' | 'alert') => {
  fireEvent.click(screen.getByRole('button', { name: 'Sync Courses' }))
  let text = ''
  await pollUntil(() => {
    text = screen.getByRole(role, { name: '' }).textContent ?? ''
    expect(text).not.toBe('')
  })
  return text
}

beforeAll(preloadRoutes)

// Each test renders the whole catalogue; on a busy machine that alone takes seconds.
describe('Sync Courses (admin)', { timeout: 20_000 }, () => {
  it('shows the server message and clears it after 5 s; the label says Sync complete! for 3 s', async () => {
    server.use(
      http.get(SYNC, () =>
        HttpResponse.json({ success: true, message: 'Courses synced successfully!', courseCount: 3 }),
      ),
    )
    await openCatalogueWithFakeTimers()
    expect(await syncAndRead('status')).toBe('Courses synced successfully!')
    expect(screen.getByRole('button', { name: 'Sync complete!' })).toBeInTheDocument()
    await advance(2900)
    expect(screen.getByRole('button', { name: 'Sync complete!' })).toBeInTheDocument()
    await advance(200)
    expect(screen.getByRole('button', { name: 'Sync Courses' })).toBeInTheDocument()
    await advance(1800)
    expect(screen.getByText('Courses synced successfully!')).toBeInTheDocument()
    await advance(200)
    expect(screen.queryByText('Courses synced successfully!')).not.toBeInTheDocument()
  })

  it('falls back to the default text when the server sends no message', async () => {
    server.use(http.get(SYNC, () => HttpResponse.json({ success: true, message: '', courseCount: 3 })))
    await openCatalogueWithFakeTimers()
    expect(await syncAndRead('status')).toBe('Courses synced successfully!')
  })

  it('reports an unexpected response', async () => {
    server.use(http.get(SYNC, () => HttpResponse.json({ ok: 1 })))
    await openCatalogueWithFakeTimers()
    expect(await syncAndRead('alert')).toBe('Sync completed but returned an unexpected response')
  })

  it('shows the server error message, or the default text', async () => {
    server.use(http.get(SYNC, () => HttpResponse.json({ message: 'SCORM Cloud is not configured.' }, { status: 503 })))
    await openCatalogueWithFakeTimers()
    expect(await syncAndRead('alert')).toBe('SCORM Cloud is not configured.')
    expect(screen.getByRole('button', { name: 'Sync failed!' })).toBeInTheDocument()
    await advance(5100)
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    server.use(http.get(SYNC, () => HttpResponse.json({}, { status: 500 })))
    expect(await syncAndRead('alert')).toBe('Failed to sync courses. Please try again.')
  })
})
