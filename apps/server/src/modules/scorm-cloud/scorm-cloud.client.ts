import type {
  CourseListSchema,
  CourseSchema,
  DestinationIdSchema,
  DestinationInfoListSchema,
  DestinationInfoSchema,
  DispatchIdSchema,
  DispatchListSchema,
  DispatchSchema,
  PingSchema,
  RegistrationListSchema,
  RegistrationSchema,
  TagListSchema,
  UpdateDispatchSchema,
} from '@portal/scorm-cloud-sim'
import { createTransport, type RequestOptions, type TransportOptions } from './http-transport'

export interface ListWindow {
  /** Inclusive ISO lower bound on `datetimeFilter`. */
  since?: Date | null
  until?: Date | null
  datetimeFilter?: 'created' | 'updated'
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : undefined)
const enc = encodeURIComponent

/**
 * Typed SCORM Cloud API v2 calls the portal needs (reference/scorm-cloud-api-v2.md). The only
 * module that talks to the provider; lists are async generators that follow `more` to the end,
 * one page at a time, so a million registrations never sit in memory together.
 */
export function createScormCloudClient(options: TransportOptions) {
  const http = createTransport(options)

  /** Cursor paging (reference §2): the follow-up request carries `more` and nothing else. */
  async function* pages<T extends { more?: string }>(path: string, query: RequestOptions['query']) {
    let page = await http.json<T>('GET', path, { query })
    yield page
    while (page.more) {
      page = await http.json<T>('GET', path, { query: { more: page.more } })
      yield page
    }
  }

  const windowQuery = (w: ListWindow = {}) => ({
    since: iso(w.since),
    until: iso(w.until),
    datetimeFilter: w.since || w.until ? (w.datetimeFilter ?? 'updated') : undefined,
  })

  return {
    /** The application the credentials belong to: a course's hosting app (SPEC §3 appSource). */
    appId: options.appId,
    ping: () => http.json<PingSchema>('GET', '/ping'),

    async *courses(w?: ListWindow): AsyncGenerator<CourseSchema[]> {
      for await (const page of pages<CourseListSchema>('/courses', {
        ...windowQuery(w),
        includeRegistrationCount: true,
      })) {
        yield page.courses ?? []
      }
    },
    getCourse: (id: string) =>
      http.json<CourseSchema>('GET', `/courses/${enc(id)}`, { query: { includeRegistrationCount: true } }),

    async *destinations(w?: ListWindow): AsyncGenerator<DestinationIdSchema[]> {
      for await (const page of pages<DestinationInfoListSchema>('/dispatch/destinations', windowQuery(w))) {
        yield page.destinations ?? []
      }
    },
    getDestination: (id: string) => http.json<DestinationInfoSchema>('GET', `/dispatch/destinations/${enc(id)}`),

    async *dispatches(w?: ListWindow & { courseId?: string }): AsyncGenerator<DispatchIdSchema[]> {
      for await (const page of pages<DispatchListSchema>('/dispatch/dispatches', {
        ...windowQuery(w),
        courseId: w?.courseId,
      })) {
        yield page.dispatches ?? []
      }
    },
    getDispatch: (id: string) => http.json<DispatchSchema>('GET', `/dispatch/dispatches/${enc(id)}`),
    updateDispatch: (id: string, body: UpdateDispatchSchema) =>
      http.json<void>('PUT', `/dispatch/dispatches/${enc(id)}`, { body }),
    setDispatchEnabled: (id: string, enabled: boolean) =>
      http.json<void>('PUT', `/dispatch/dispatches/${enc(id)}/enabled`, { body: { enabled } }),
    getDispatchTags: (id: string) => http.json<TagListSchema>('GET', `/dispatch/dispatches/${enc(id)}/tags`),
    addDispatchTags: (id: string, tags: string[]) =>
      http.json<void>('PUT', `/dispatch/dispatches/${enc(id)}/tags`, { body: { tags } }),
    removeDispatchTags: (id: string, tags: string[]) =>
      http.json<void>('DELETE', `/dispatch/dispatches/${enc(id)}/tags`, { body: { tags } }),

    async *registrations(w?: ListWindow & { courseId?: string }): AsyncGenerator<RegistrationSchema[]> {
      for await (const page of pages<RegistrationListSchema>('/registrations', {
        ...windowQuery(w),
        courseId: w?.courseId,
      })) {
        yield page.registrations ?? []
      }
    },
    getRegistration: (id: string) => http.json<RegistrationSchema>('GET', `/registrations/${enc(id)}`),

    breaker: http.breaker,
    attempts: http.attempts,
    close: http.close,
  }
}
export type ScormCloudClient = ReturnType<typeof createScormCloudClient>
