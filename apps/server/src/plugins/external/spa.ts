import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import fp from 'fastify-plugin'
import fastifyStatic from '@fastify/static'

/**
 * Serves the built web app: hashed assets cached for a year, index.html for every other
 * non-API path so the browser router can answer (docs/architecture.md "API server"). Source maps
 * are never served, even when a build made them: they give the application's source away.
 * Developers read them through Vite (`npm run dev -w @portal/web`, or `vite build --sourcemap`
 * then `vite preview`), which also proxies the API.
 */
export const spaPlugin = fp<{ distDir: string | null }>(
  async (app, { distDir }) => {
    const indexFile = distDir == null ? null : path.join(distDir, 'index.html')
    // Read once: every browser route answers the same small page.
    const indexHtml = indexFile && existsSync(indexFile) ? readFileSync(indexFile) : null
    if (indexHtml && distDir) {
      await app.register(async (assets) => {
        assets.addHook('onRoute', (route) => {
          route.config = { ...(route.config ?? {}), public: true }
        })
        await assets.register(fastifyStatic, {
          root: distDir,
          wildcard: false,
          index: false,
          globIgnore: ['**/*.map'],
          // name.br / name.gz made by scripts/compress-dist.mjs at build time.
          preCompressed: true,
          setHeaders(reply, filePath) {
            void reply.header(
              'cache-control',
              filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
            )
          },
        })
      })
    }

    app.setNotFoundHandler(
      { preHandler: app.rateLimit({ max: 300, timeWindow: '1 minute' }) },
      async (request, reply) => {
        // A missing asset (an old chunk, a source map) is a 404, not the page: a browser
        // asking for a script must not be handed HTML. HEAD answers as GET does, without the
        // body (uptime monitors and link checkers ask a page with HEAD).
        const wantsPage =
          (request.method === 'GET' || request.method === 'HEAD') &&
          !request.url.startsWith('/api') &&
          !request.url.startsWith('/assets/')
        if (wantsPage && indexHtml) {
          return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml)
        }
        return reply.code(404).send({ code: 'NOT_FOUND', message: 'Not found.' })
      },
    )
  },
  { name: 'spa', dependencies: ['security'] },
)
