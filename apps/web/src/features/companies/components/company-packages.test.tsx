import { screen, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { server } from '@/testing/mocks/server'
import { preloadRoutes, renderApp, signInAs } from '@/testing/test-utils'

beforeAll(preloadRoutes)

let saved: HTMLAnchorElement[] = []
beforeEach(() => {
  saved = []
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this)
  })
  Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:packages'), revokeObjectURL: vi.fn() })
})
afterEach(() => {
  Reflect.deleteProperty(URL, 'createObjectURL')
  Reflect.deleteProperty(URL, 'revokeObjectURL')
})

describe('company detail: Download all packages', () => {
  it.each(['admin', 'sales'] as const)('lets %s download every package of the company in one zip', async (role) => {
    signInAs(role)
    const asked: string[] = []
    server.use(
      http.get('/api/dispatches/packages', ({ request }) => {
        asked.push(new URL(request.url).search)
        return new HttpResponse(new Uint8Array([0x50, 0x4b, 5, 6]), { headers: { 'Content-Type': 'application/zip' } })
      }),
    )
    const { user } = renderApp('/admin/companies/company-1')
    await user.click(await screen.findByRole('button', { name: 'Download all packages' }))
    await waitFor(() => expect(saved).toHaveLength(1))
    expect(asked).toEqual(['?companyId=company-1'])
    expect(saved[0]!.download).toBe('Acme Learning - all packages.zip')
  })

  it('shows the provider failure under the button', async () => {
    signInAs('admin')
    server.use(
      http.get('/api/dispatches/packages', () =>
        HttpResponse.json({ code: 'UPSTREAM_FAILED', message: 'SCORM Cloud did not answer in time.' }, { status: 502 }),
      ),
    )
    const { user } = renderApp('/admin/companies/company-1')
    await user.click(await screen.findByRole('button', { name: 'Download all packages' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('SCORM Cloud did not answer in time.')
    expect(saved).toEqual([])
  })
})
