import type {
  CreateDispatchSchema,
  CourseSchema,
  DestinationIdSchema,
  DestinationInfoSchema,
  DispatchIdSchema,
  DispatchListSchema,
  DispatchLti13InfoSchema,
  DispatchLtiInfoSchema,
  EnabledSchema,
  LaunchAuthSchema,
  Lti13ToolConfigurationSchema,
  DispatchSchema,
  PingSchema,
  RegistrationSchema,
  TagListSchema,
  UpdateDispatchSchema,
} from './scorm-cloud.types'
import { createTransport, type RequestOptions, type TransportOptions } from './http-transport'
import { ScormCloudError } from './scorm-cloud.errors'

/** Zip endpoints (docs/scorm-cloud-api.md §6.1): `type` defaults to and may only be SCORM_12. */
const ZIP = { query: { type: 'SCORM_12' }, accept: 'application/zip, application/octet-stream' }

export interface ListWindow {
  /** Inclusive ISO lower bound on `datetimeFilter`. */
  since?: Date | null
  until?: Date | null
  datetimeFilter?: 'created' | 'updated'
}

/** One page of a list: its items and the provider's `more` token for the next (null: the last page). */
export interface ListPage<T = unknown> {
  items: T[]
  more: string | null
}

/** The zip query, with the style sheet the launched player should carry when one is set. */
const zipOptions = (signal?: AbortSignal, cssUrl?: string | null) => ({
  ...ZIP,
  query: cssUrl ? { ...ZIP.query, cssUrl } : ZIP.query,
  ...(signal ? { signal } : {}),
})

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : undefined)
const enc = encodeURIComponent

/**
 * Typed SCORM Cloud API v2 calls the portal needs (docs/scorm-cloud-api.md). The only
 * module that talks to the provider; lists are async generators that follow `more` to the end,
 * one page at a time, so a million registrations never sit in memory together.
 */
export function createScormCloudClient(options: TransportOptions) {
  const http = createTransport(options)

  /**
   * One page by itself: the first with `query`, or the one a saved `more` token
   * points at, so the sync can retry a page and resume a listing where an earlier run stopped.
   * Cursor paging (docs/scorm-cloud-api.md §2): the follow-up request carries `more` and nothing else.
   */
  async function listPage<K extends string, T>(
    path: string,
    key: K,
    query: RequestOptions['query'],
    more: string | null,
  ): Promise<ListPage<T>> {
    const body = await http.json<Partial<Record<K, T[]>> & { more?: string }>('GET', path, {
      query: more ? { more } : query,
    })
    return { items: body?.[key] ?? [], more: body?.more || null }
  }

  const windowQuery = (w: ListWindow = {}) => ({
    since: iso(w.since),
    until: iso(w.until),
    datetimeFilter: w.since || w.until ? (w.datetimeFilter ?? 'updated') : undefined,
  })

  /** How many items of a list fall in the window, from the first page's X-Total-Count. */
  async function listTotal(path: string, w: ListWindow): Promise<number> {
    const total = await http.total(path, { query: { ...windowQuery(w), includeTotalCount: true } })
    if (total === null) throw new ScormCloudError('SCORM Cloud sent no X-Total-Count for the list.', 200, false)
    return total
  }

  /**
   * A provider list (`key`: the list's property in each page) read three ways: one page
   * (listPage), every page in turn, and how many items fall in a window. `query`: the first page's.
   */
  function listing<T, W extends ListWindow = ListWindow>(
    path: string,
    key: string,
    query: (w?: W) => RequestOptions['query'] = windowQuery,
  ) {
    return {
      page: (w: W, more: string | null) => listPage<string, T>(path, key, query(w), more),
      async *all(w?: W): AsyncGenerator<T[]> {
        let more: string | null = null
        do {
          const next: ListPage<T> = await listPage(path, key, query(w), more)
          yield next.items
          more = next.more
        } while (more)
      },
      total: (w: ListWindow) => listTotal(path, w),
    }
  }

  const withCourse = (w?: ListWindow & { courseId?: string }) => ({ ...windowQuery(w), courseId: w?.courseId })
  const courseList = listing<CourseSchema>('/courses', 'courses', (w) => ({
    ...windowQuery(w),
    includeRegistrationCount: true,
  }))
  const destinationList = listing<DestinationIdSchema>('/dispatch/destinations', 'destinations')
  const dispatchList = listing<DispatchIdSchema, ListWindow & { courseId?: string }>(
    '/dispatch/dispatches',
    'dispatches',
    withCourse,
  )
  const registrationList = listing<RegistrationSchema, ListWindow & { courseId?: string }>(
    '/registrations',
    'registrations',
    withCourse,
  )

  return {
    /** The application the credentials belong to: a course's hosting app (docs/product-rules.md §3 appSource). */
    appId: options.appId,
    ping: () => http.json<PingSchema>('GET', '/ping'),

    courses: courseList.all,
    coursePage: courseList.page,
    courseTotal: courseList.total,
    getCourse: (id: string) =>
      http.json<CourseSchema>('GET', `/courses/${enc(id)}`, { query: { includeRegistrationCount: true } }),

    destinations: destinationList.all,
    destinationPage: destinationList.page,
    /** The dispatches of one destination (the counter check re-reads a destination whose sum moved). */
    destinationDispatchPage: (destinationId: string, more: string | null) =>
      listPage<'dispatches', DispatchIdSchema>(
        `/dispatch/destinations/${enc(destinationId)}/dispatches`,
        'dispatches',
        {},
        more,
      ),
    /** Sum of the registration counters of a destination's dispatches (docs/scorm-cloud-api.md §6.1). */
    destinationRegistrationCount: async (destinationId: string) =>
      (
        await http.json<{ result?: number }>(
          'GET',
          `/dispatch/destinations/${enc(destinationId)}/dispatches/registrationCount`,
        )
      )?.result ?? 0,
    destinationTotal: destinationList.total,
    getDestination: (id: string) => http.json<DestinationInfoSchema>('GET', `/dispatch/destinations/${enc(id)}`),

    dispatches: dispatchList.all,
    dispatchPage: dispatchList.page,
    dispatchTotal: dispatchList.total,
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

    // ---- Delivery settings and LTI (docs/scorm-cloud-api.md §5, §6.1) ----
    /** PUT /dispatch/destinations/{id} with launchAuth only: the other fields are left as they are. */
    setDestinationLaunchAuth: (destinationId: string, launchAuth: LaunchAuthSchema) =>
      http.json<void>('PUT', `/dispatch/destinations/${enc(destinationId)}`, { body: { launchAuth } }),
    getDestinationHashUserInfo: async (destinationId: string) =>
      (await http.json<EnabledSchema>('GET', `/dispatch/destinations/${enc(destinationId)}/dispatches/hashUserInfo`))
        ?.enabled ?? false,
    setDestinationHashUserInfo: (destinationId: string, enabled: boolean) =>
      http.json<void>('PUT', `/dispatch/destinations/${enc(destinationId)}/dispatches/hashUserInfo`, {
        body: { enabled },
      }),
    /** Instancing of every dispatch of the destination (it is a POST upstream). */
    setDestinationInstancing: (destinationId: string, enabled: boolean) =>
      http.json<void>('POST', `/dispatch/destinations/${enc(destinationId)}/dispatches/registrationInstancing`, {
        body: { enabled },
      }),
    getDispatchHashUserInfo: async (id: string) =>
      (await http.json<EnabledSchema>('GET', `/dispatch/dispatches/${enc(id)}/hashUserInfo`))?.enabled ?? false,
    setDispatchHashUserInfo: (id: string, enabled: boolean) =>
      http.json<void>('PUT', `/dispatch/dispatches/${enc(id)}/hashUserInfo`, { body: { enabled } }),
    dispatchLti: (id: string) => http.json<DispatchLtiInfoSchema>('GET', `/dispatch/dispatches/${enc(id)}/lti`),
    dispatchLti13: (id: string) => http.json<DispatchLti13InfoSchema>('GET', `/dispatch/dispatches/${enc(id)}/lti13`),
    destinationLti13: (destinationId: string) =>
      http.json<Lti13ToolConfigurationSchema>('GET', `/dispatch/destinations/${enc(destinationId)}/lti13`),

    // ---- Create, counter reset, packages ----
    /**
     * POST /dispatch/dispatches with our own id (the answer is a bare 204, so an id chosen
     * upstream could not be known). Not idempotent upstream: sent once, never retried.
     */
    createDispatch: (id: string, data: CreateDispatchSchema) =>
      http.json<void>('POST', '/dispatch/dispatches', { body: { dispatches: [{ id, data }] } }),
    /** The destination's dispatch of a course, if any (docs/scorm-cloud-api.md §6.1: 0 or 1 result). */
    async dispatchOfPair(destinationId: string, courseId: string): Promise<DispatchIdSchema | null> {
      const page = await http.json<DispatchListSchema>(
        'GET',
        `/dispatch/destinations/${enc(destinationId)}/dispatches`,
        {
          query: { courseId },
        },
      )
      return page?.dispatches?.find((d) => d.data?.courseId === courseId) ?? null
    },
    resetRegistrationCount: (id: string) =>
      http.json<void>('DELETE', `/dispatch/dispatches/${enc(id)}/registrationCount`),
    /** The package zip, as an unread streaming response (the caller pipes and may abort it). */
    dispatchZip: (id: string, signal?: AbortSignal, cssUrl?: string | null) =>
      http.stream(`/dispatch/dispatches/${enc(id)}/zip`, zipOptions(signal, cssUrl)),
    destinationZip: (destinationId: string, signal?: AbortSignal, cssUrl?: string | null) =>
      http.stream(`/dispatch/destinations/${enc(destinationId)}/dispatches/zip`, zipOptions(signal, cssUrl)),

    registrations: registrationList.all,
    registrationPage: registrationList.page,
    getRegistration: (id: string) => http.json<RegistrationSchema>('GET', `/registrations/${enc(id)}`),

    breaker: http.breaker,
    attempts: http.attempts,
    close: http.close,
  }
}
export type ScormCloudClient = ReturnType<typeof createScormCloudClient>
