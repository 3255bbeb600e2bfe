import { http, HttpResponse } from 'msw'

export const activityHandlers = [
  http.post('/api/logs/action', () => HttpResponse.json({ message: 'Recorded' }, { status: 201 })),
  http.post('/api/logs/navigation', () => HttpResponse.json({ message: 'Recorded' }, { status: 201 })),
]
