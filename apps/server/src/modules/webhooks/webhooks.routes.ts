import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { OkResponseSchema, PostbackRegistrationSchema } from '@portal/shared'
import { errorResponses } from '../../lib/error-responses'
import { route } from '../../lib/route'
import { AppError } from '../../lib/app-error'
import type { WebhooksService } from './webhooks.service'

declare module 'fastify' {
  interface FastifyRequest {
    /** Credentials of a `form` postback, which come as form fields, not as a header. */
    postbackForm: { userName: string | null; password: string | null } | null
    postbackAuthenticated: boolean
  }
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest()

function basicCredentials(header: string | undefined): { user: string; password: string } | null {
  if (!header?.startsWith('Basic ')) return null
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8')
  const cut = decoded.indexOf(':')
  return cut < 0 ? null : { user: decoded.slice(0, cut), password: decoded.slice(cut + 1) }
}

const unauthorised = () => new AppError('UNAUTHENTICATED', 'Invalid postback credentials.')
const badForm = (message: string) => new AppError('VALIDATION_FAILED', message)

/**
 * POST /api/webhooks/scorm-cloud/registrations (docs/scorm-cloud-api.md §9). Public to the session auth, but
 * SCORM Cloud must present the postback credentials: a Basic header (`httpbasic`) or the
 * `userName` / `password` fields of a `form` delivery. Never redirects: the provider would
 * count a 3xx as delivered.
 */
const webhookRoutes: FastifyPluginAsyncTypebox<{
  webhooks: WebhooksService
  credentials: { user: string; password: string }
}> = async (app, { webhooks, credentials }) => {
  const expectedUser = digest(credentials.user)
  const expectedPassword = digest(credentials.password)
  // Both halves always compared, in constant time over equal-length digests.
  const valid = (user: string, password: string) => {
    const userOk = timingSafeEqual(digest(user), expectedUser)
    const passwordOk = timingSafeEqual(digest(password), expectedPassword)
    return userOk && passwordOk
  }

  app.decorateRequest('postbackForm', null)
  app.decorateRequest('postbackAuthenticated', false)

  // `form` delivery: urlencoded `data` holding the registration JSON (this plugin's scope only).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (request: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
      const form = new URLSearchParams(body.toString())
      request.postbackForm = { userName: form.get('userName'), password: form.get('password') }
      const data = form.get('data')
      if (data === null) return done(badForm('The form has no data field.'))
      try {
        done(null, JSON.parse(data))
      } catch {
        done(badForm('The data field is not valid JSON.'))
      }
    },
  )

  // Refused before the body is read: a wrong Basic header, or none on a non-form delivery.
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization
    if (header === undefined) {
      const isForm = /^application\/x-www-form-urlencoded\b/i.test(request.headers['content-type'] ?? '')
      if (!isForm) throw unauthorised()
      return
    }
    const basic = basicCredentials(header)
    if (!basic || !valid(basic.user, basic.password)) throw unauthorised()
    request.postbackAuthenticated = true
  })

  // Without a header, a form delivery's fields are the credentials (known once the body is parsed).
  app.addHook('preValidation', async (request) => {
    if (request.postbackAuthenticated) return
    const form = request.postbackForm
    if (!form?.userName || form.password === null || !valid(form.userName, form.password)) throw unauthorised()
  })

  app.post(
    '/registrations',
    route('public', {
      tags: ['webhooks'],
      body: PostbackRegistrationSchema,
      response: { 200: OkResponseSchema, ...errorResponses(400, 401) },
    }),
    async (request) => webhooks.storeRegistration(request.body),
  )
}

export default webhookRoutes
