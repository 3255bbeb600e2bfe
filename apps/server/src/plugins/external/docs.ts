import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { apiKeyScopeOf, WEBHOOK_EVENT_DATA, webhookBodySchema, type Permission } from '@portal/shared'

const header = (name: string, description: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
})

/**
 * The outgoing webhooks (docs/api.md, "Webhooks"): one entry per event, its body and the
 * Standard Webhooks headers every delivery carries. Not routes of this server: requests it sends.
 */
function webhooksSection(): Record<string, never> {
  const parameters = [
    header('webhook-id', 'The event\'s id: the same on every retry and on "Send again".'),
    header('webhook-timestamp', 'When this attempt was sent, in seconds since 1970.'),
    header(
      'webhook-signature',
      '`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part of the secret after `whsec_`.',
    ),
  ]
  // Typed loosely: swagger's OpenAPI types want literal unions the TypeBox schemas do not carry.
  return Object.fromEntries(
    Object.entries(WEBHOOK_EVENT_DATA).map(([type, { summary, data }]) => [
      type,
      {
        post: {
          summary,
          operationId: `webhook_${type.replace(/\W/g, '_')}`,
          tags: ['webhooks'],
          parameters,
          requestBody: { required: true, content: { 'application/json': { schema: webhookBodySchema(type, data) } } },
          responses: {
            '2XX': { description: 'Received. Anything else (a redirect too) is retried for about a day.' },
          },
        },
      },
    ]),
  ) as Record<string, never>
}

/** The OpenAPI document, generated from the route schemas, and its page at /api/docs. */
export const docsPlugin = fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        // 3.1: the version with a `webhooks` section (the portal's outgoing requests).
        openapi: '3.1.0',
        webhooks: webhooksSection(),
        info: { title: 'Dispatch Portal API', version: '1.0.0' },
        components: {
          securitySchemes: {
            accessToken: { type: 'apiKey', in: 'header', name: 'x-auth-token' },
            apiKey: {
              type: 'http',
              scheme: 'bearer',
              bearerFormat: 'dp_live_…',
              description: 'An API key (docs/api.md): `Authorization: Bearer dp_live_…`, acting with its scopes.',
            },
          },
        },
        security: [{ accessToken: [] }],
      },
      // Each gated route names the API key scope it needs (none: a person's route, no key may call it).
      transform: ({ schema, url, route }) => {
        const config = route.config as { permission?: Permission; public?: boolean } | undefined
        if (!config?.permission || config.public) return { schema, url }
        const scope = apiKeyScopeOf(config.permission)
        const note = scope ? `API key scope: \`${scope}\`.` : 'Not callable with an API key.'
        const base = schema as { description?: string } | undefined
        return {
          url,
          schema: {
            ...schema,
            description: base?.description ? `${base.description}\n\n${note}` : note,
            'x-api-key-scope': scope,
            security: scope ? [{ accessToken: [] }, { apiKey: [scope] }] : [{ accessToken: [] }],
          } as typeof schema,
        }
      },
    })
    await app.register(async (docs) => {
      // The documentation pages are public; they describe the API, they grant nothing.
      docs.addHook('onRoute', (route) => {
        route.config = { ...(route.config ?? {}), public: true }
      })
      await docs.register(swaggerUi, { routePrefix: '/api/docs' })
    })
  },
  { name: 'docs' },
)
