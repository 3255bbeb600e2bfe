import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'

/** The OpenAPI document, generated from the route schemas, and its page at /api/docs. */
export const docsPlugin = fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        info: { title: 'Dispatch Portal API', version: '1.0.0' },
        components: {
          securitySchemes: { accessToken: { type: 'apiKey', in: 'header', name: 'x-auth-token' } },
        },
        security: [{ accessToken: [] }],
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
