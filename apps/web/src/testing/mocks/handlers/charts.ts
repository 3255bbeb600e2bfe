import type { DashboardCharts, DispatchCharts } from '@portal/shared'
import { http, HttpResponse } from 'msw'

/** Chart data for the dispatch details and the dashboard. */
export function makeDispatchCharts(): DispatchCharts {
  const weeks = Array.from({ length: 26 }, (_, i) => ({
    week: new Date(Date.UTC(2026, 0, 5) + i * 7 * 86_400_000).toISOString().slice(0, 10),
    completions: i === 25 ? 4 : i === 20 ? 2 : 0,
  }))
  return {
    weeks,
    status: { registrations: 10, completed: 6, incomplete: 3, notStarted: 1, passed: 5, failed: 1, unknown: 4 },
  }
}

export function makeDashboardCharts(overrides: Partial<DashboardCharts> = {}): DashboardCharts {
  let cumulative = 100
  const months = Array.from({ length: 12 }, (_, i) => {
    const registrations = i * 3
    cumulative += registrations
    return { month: `2026-${String(i + 1).padStart(2, '0')}`, registrations, cumulative }
  })
  return {
    months,
    usage: { used: 42, capacity: 100, unlimited: 1 },
    nearestCap: [
      {
        id: 'd-1',
        courseTitle: 'Workplace Safety Basics',
        destinationName: 'Acme Learning',
        registrationCount: 95,
        registrationCap: 100,
      },
    ],
    ...overrides,
  }
}

export const chartHandlers = [
  http.get('/api/reports/charts/dispatch/:id', () => HttpResponse.json(makeDispatchCharts())),
  http.get('/api/reports/charts/dashboard', () => HttpResponse.json(makeDashboardCharts())),
]
