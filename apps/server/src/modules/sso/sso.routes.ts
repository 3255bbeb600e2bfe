import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import {
  IdParamsSchema,
  OkResponseSchema,
  RefreshBodySchema,
  SaveSsoConnectionBodySchema,
  SignInResponseSchema,
  SsoDemoSchema,
  SsoDomainsBodySchema,
  SsoExchangeBodySchema,
  SsoFlowTestResultSchema,
  SsoPasswordUsersBodySchema,
  SsoTestStartSchema,
  SsoLogoutResponseSchema,
  SsoLookupQuerySchema,
  SsoLookupSchema,
  SsoSettingsSchema,
  SsoTestResultSchema,
} from '@portal/shared'
import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify'
import { Type } from 'typebox'
import { errorResponses } from '../../lib/error-responses'
import { actorOf } from '../../plugins/app/auth'
import { SAML_RESPONSE_MAX_CHARS } from './saml'
import type { SsoService } from './sso.service'
import { route } from '../../lib/route'

/** The browser that started a sign-in carries its flow's id back to the callback. */
export const FLOW_COOKIE = 'portal_sso_flow'
const FLOW_COOKIE_PATH = '/api/auth/sso'

const clientOf = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'].slice(0, 300) : null,
})

function cookieOf(request: FastifyRequest, name: string): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key === name) return decodeURIComponent(value.join('='))
  }
  return null
}

/** The flow cookie: the browser that started a sign-in (or an admin's test) carries it to the callback. */
export const flowCookie = (value: string, maxAge: number, secure: boolean) =>
  `${FLOW_COOKIE}=${value}; Path=${FLOW_COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`

/** A started test sign-in (a company's or the staff's): its flow cookie set, the provider's address answered. */
export function testStarted(reply: FastifyReply, started: { location: string; flowId: string }, secure: boolean) {
  void reply.header('set-cookie', flowCookie(started.flowId, 600, secure))
  return { location: started.location }
}

const redirectTo = Type.Null({ description: 'A redirect (Location header)' })
const redirect = { 302: redirectTo }
const CompanyIdParams = Type.Object({ companyId: Type.String({ minLength: 1, maxLength: 200 }) })
/**
 * The ACS route reads at most this much: above it Fastify answers 413 unread; a SAMLResponse
 * field over SAML_RESPONSE_MAX_CHARS within it is refused and logged like any bad response.
 */
const ACS_BODY_LIMIT = SAML_RESPONSE_MAX_CHARS + 64 * 1024
/** What the identity provider posts back (HTTP-POST binding). */
const SamlPostBody = Type.Object({
  // Longer than SAML_RESPONSE_MAX_CHARS, so an oversized response within the body
  // limit is refused by the service, which logs the refusal.
  SAMLResponse: Type.String({ minLength: 1, maxLength: ACS_BODY_LIMIT }),
  RelayState: Type.Optional(Type.String({ maxLength: 1000 })),
})

/** The error answers of the admin routes (a company's connection and the staff one): 409 for a conflicting save. */
export const adminErrors = errorResponses(400, 401, 403, 404, 409)
/** Who changes a connection, and from where: what its activity log entry records. */
export const adminContext = (request: FastifyRequest) => ({ actor: actorOf(request), ip: request.ip })

/** /api/admin/companies/{id}/sso: a company's connection, domains and rules (admin). */
export const ssoAdminRoutes: FastifyPluginAsyncTypebox<{ sso: SsoService; secureCookie: boolean }> = async (
  app,
  { sso, secureCookie },
) => {
  // Every route here manages one company's connection: the same permission, tag and company id.
  const manage = <S extends Omit<FastifySchema, 'params'>>(schema: S) =>
    route('sso.manage', { tags: ['sso'], params: IdParamsSchema, ...schema })

  app.get('/:id/sso', manage({ response: { 200: SsoSettingsSchema, ...adminErrors } }), async (request) =>
    sso.settings(request.params.id),
  )

  app.put(
    '/:id/sso',
    manage({
      body: SaveSsoConnectionBodySchema,
      response: { 200: SsoSettingsSchema, ...adminErrors },
    }),
    async (request) => sso.save(request.params.id, request.body, adminContext(request)),
  )

  app.delete('/:id/sso', manage({ response: { 200: OkResponseSchema, ...adminErrors } }), async (request) => {
    await sso.remove(request.params.id, adminContext(request))
    return { message: 'Single sign-on connection removed' }
  })

  app.put(
    '/:id/sso/domains',
    manage({
      body: SsoDomainsBodySchema,
      response: { 200: SsoSettingsSchema, ...adminErrors },
    }),
    async (request) => sso.setDomains(request.params.id, request.body.domains, adminContext(request)),
  )

  app.post('/:id/sso/test', manage({ response: { 200: SsoTestResultSchema, ...adminErrors } }), async (request) =>
    sso.test(request.params.id),
  )

  app.put(
    '/:id/sso/password-users',
    manage({
      description:
        'The company’s users who may keep signing in with a password although the company requires single sign-on (the whole list).',
      body: SsoPasswordUsersBodySchema,
      response: { 200: SsoSettingsSchema, ...adminErrors },
    }),
    async (request) => sso.setPasswordUsers(request.params.id, request.body.userIds, adminContext(request)),
  )

  app.post(
    '/:id/sso/test/start',
    manage({
      description:
        'Starts a test sign-in at the company’s provider: the admin’s browser goes to `location`, signs in there, and comes back to the company’s page with the test’s id. Nobody is signed in to the portal.',
      response: { 200: SsoTestStartSchema, ...errorResponses(400, 401, 403, 404, 409, 502) },
    }),
    async (request, reply) =>
      testStarted(reply, await sso.startTest(request.params.id, actorOf(request)), secureCookie),
  )

  app.get(
    '/:id/sso/test/:flowId',
    route('sso.manage', {
      tags: ['sso'],
      description:
        'What the provider sent in the admin’s own test sign-in: the ID token’s claims or the assertion’s attributes (never a token).',
      params: Type.Object({ id: IdParamsSchema.properties.id, flowId: Type.String({ minLength: 1, maxLength: 36 }) }),
      response: { 200: SsoFlowTestResultSchema, ...adminErrors },
    }),
    async (request) => sso.testResult(request.params.id, request.params.flowId, actorOf(request)),
  )
}

/** /api/auth/sso: the public side of single sign-on (the browser's flow, the sign-in page's calls). */
export const ssoAuthRoutes: FastifyPluginAsyncTypebox<{ sso: SsoService; secureCookie: boolean }> = async (
  app,
  { sso, secureCookie },
) => {
  const errors = errorResponses(400, 401, 429)
  const cookie = (value: string, maxAge: number) => flowCookie(value, maxAge, secureCookie)
  /** A sign-in starts at the provider: a company's connection, or the staff connection (null). */
  const startAt = async (companyId: string | null, request: FastifyRequest, reply: FastifyReply) => {
    const { location, flowId } = await sso.start(companyId, clientOf(request))
    if (flowId) void reply.header('set-cookie', cookie(flowId, 600))
    return reply.redirect(location, 302)
  }

  app.get(
    '/lookup',
    route('public', {
      tags: ['sso'],
      querystring: SsoLookupQuerySchema,
      response: { 200: SsoLookupSchema, ...errors },
    }),
    async (request) => sso.lookup(request.query.email),
  )

  app.get('/demo', route('public', { tags: ['sso'], response: { 200: SsoDemoSchema } }), async () => sso.demo())

  app.get(
    '/:companyId/start',
    route('public', {
      tags: ['sso'],
      params: CompanyIdParams,
      response: { ...redirect, ...errors },
    }),
    async (request, reply) => startAt(request.params.companyId, request, reply),
  )

  app.get(
    '/staff/start',
    route('public', {
      tags: ['sso'],
      description: "Starts the vendor's staff sign-in through the staff connection.",
      response: { ...redirect, ...errors },
    }),
    async (request, reply) => startAt(null, request, reply),
  )

  app.get(
    '/callback',
    route('public', {
      tags: ['sso'],
      querystring: Type.Object({
        code: Type.Optional(Type.String({ maxLength: 2000 })),
        state: Type.Optional(Type.String({ maxLength: 500 })),
        error: Type.Optional(Type.String({ maxLength: 200 })),
        iss: Type.Optional(Type.String({ maxLength: 500 })),
      }),
      response: { ...redirect, ...errors },
    }),
    async (request, reply) => {
      const query = new URL(request.url, 'http://callback.invalid').searchParams
      const location = await sso.callback(query, cookieOf(request, FLOW_COOKIE), clientOf(request))
      void reply.header('set-cookie', cookie('', 0))
      return reply.redirect(location, 302)
    },
  )

  app.get(
    '/saml/:companyId/metadata',
    route('public', {
      tags: ['sso'],
      description:
        "This portal's SAML service-provider metadata for the company (entity id, ACS URL), for the identity provider's administrator.",
      params: CompanyIdParams,
      produces: ['application/samlmetadata+xml'],
      response: { 200: Type.String({ description: 'SAML metadata XML' }), ...errorResponses(404) },
    }),
    async (request, reply) => {
      const xml = await sso.samlMetadata(request.params.companyId)
      if (xml === null) return reply.code(404).send({ code: 'NOT_FOUND', message: 'Company not found' })
      const name = request.params.companyId.replace(/[^\w.-]+/g, '_').slice(0, 80)
      return reply
        .type('application/samlmetadata+xml; charset=utf-8')
        .header('content-disposition', `attachment; filename="sp-metadata-${name}.xml"`)
        .send(xml)
    },
  )

  // The identity provider's form POST (HTTP-POST binding), read as a form in this scope only.
  await app.register(async (scope) => {
    const acs = scope.withTypeProvider<TypeBoxTypeProvider>()
    acs.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: ACS_BODY_LIMIT },
      (_request: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
        done(null, Object.fromEntries(new URLSearchParams(body.toString())))
      },
    )
    // Identity providers post a form; JSON is read the same way (and goes through the same checks).
    const samlPost = (description: string) => ({
      config: { public: true },
      bodyLimit: ACS_BODY_LIMIT,
      schema: {
        tags: ['sso'],
        description,
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        params: CompanyIdParams,
        body: SamlPostBody,
        response: { 303: redirectTo, ...errors },
      },
    })
    acs.post(
      '/saml/:companyId/acs',
      samlPost(
        'Assertion consumer service: the identity provider posts its signed response here; the browser is sent on to the sign-in page with a one-time code or a refusal code.',
      ),
      async (request, reply) => {
        const location = await sso.samlAcs(request.params.companyId, request.body.SAMLResponse, clientOf(request))
        // 303: the browser follows with a GET, never re-posting the response.
        return reply.redirect(location, 303)
      },
    )
    acs.post(
      '/saml/:companyId/slo',
      samlPost(
        "Single logout service: the identity provider posts its signed LogoutResponse here after the portal's sign-out asked it to end its session; the browser is sent on to the sign-in page.",
      ),
      async (request, reply) => {
        const location = await sso.samlLogoutResponse(request.params.companyId, request.body.SAMLResponse)
        return reply.redirect(location, 303)
      },
    )
  })

  app.post(
    '/exchange',
    {
      config: { public: true },
      // A session, or the second step the user's factor (or a required enrolment) asks first.
      schema: { tags: ['sso'], body: SsoExchangeBodySchema, response: { 200: SignInResponseSchema, ...errors } },
    },
    async (request) => sso.exchange(request.body.code, clientOf(request)),
  )

  app.post(
    '/logout',
    route('public', { tags: ['sso'], body: RefreshBodySchema, response: { 200: SsoLogoutResponseSchema, ...errors } }),
    async (request) => sso.logout(request.body.refreshToken, clientOf(request)),
  )
}
