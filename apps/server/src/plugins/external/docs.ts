import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { apiKeyScopeOf, type Permission } from '@portal/shared'

/** The OpenAPI document, generated from the route schemas, and its page at /api/docs. */
export const docsPlugin = fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
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
