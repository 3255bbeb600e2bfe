/** The zip endpoints (docs/scorm-cloud-api.md §6.1): one dispatch's package, and all of a destination's. */
import { Readable } from 'node:stream'
import { HttpError, type Reply } from './http-util'
import { destinationPackage, dispatchPackage, type PackageSpec, type ZipStream } from './package-zip'
import { destinationIdx, dispatchIdx } from './route-params'
import type { RequestContext, Route } from './router'

/** Where a dispatch stub sends the learner (served by the simulator, outside /api/v2). */
export const LAUNCH_PATH = '/dispatch/launch'

/** `type` defaults to and may only be SCORM_12 (docs/scorm-cloud-api.md §6.1). */
function checkType(rc: RequestContext): void {
  const type = rc.search.get('type')
  if (type !== null && type !== 'SCORM_12') throw new HttpError(400, `Invalid value for parameter type: ${type}`)
}

function specOf(rc: RequestContext, idx: number): PackageSpec {
  const { catalog } = rc.sim.store
  const d = catalog.dispatch(idx)
  return {
    dispatchId: d.id,
    courseTitle: catalog.course(d.courseIdx).title,
    destinationName: catalog.destination(d.destinationIdx).name,
    launchUrl: `${rc.origin}${LAUNCH_PATH}/${encodeURIComponent(d.id)}`,
    paddingBytes: rc.sim.options.packagePaddingBytes,
  }
}

const zipReply = (zip: ZipStream): Reply => ({
  status: 200,
  headers: { 'Content-Type': 'application/zip', 'Content-Length': String(zip.size) },
  stream: zip.stream,
})

export const packageRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/dispatch/dispatches/{dispatchId}/zip',
    handler: (rc) => {
      checkType(rc)
      return zipReply(dispatchPackage(specOf(rc, dispatchIdx(rc))))
    },
  },
  {
    method: 'GET',
    pattern: '/dispatch/destinations/{destinationId}/dispatches/zip',
    handler: (rc) => {
      checkType(rc)
      const { catalog } = rc.sim.store
      const destination = destinationIdx(rc)
      // `tags`: dispatches having any of them (docs/scorm-cloud-api.md §2), as on the lists.
      const tags = (rc.search.get('tags') ?? '').split(',').filter(Boolean)
      const specs = catalog
        .dispatches()
        .filter((d) => d.destinationIdx === destination)
        .filter((d) => tags.length === 0 || d.tags.some((t) => tags.includes(t)))
        .map((d) => specOf(rc, d.idx))
      return zipReply(destinationPackage(specs))
    },
  },
]

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c] ?? c)

/**
 * GET /dispatch/launch/{id} (no API credentials, as for a learner's browser): a page standing in
 * for the course, or why it cannot start (unknown, disabled or expired dispatch).
 */
export function launchPage(ctx: RequestContext['sim'], dispatchId: string): Reply {
  const { catalog } = ctx.store
  const page = (status: number, text: string): Reply => {
    const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>SCORM Cloud (simulated)</title></head><body><p>${escapeHtml(text)}</p></body></html>`
    const bytes = Buffer.from(html)
    return {
      status,
      headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(bytes.length) },
      stream: Readable.from([bytes]),
    }
  }
  const idx = catalog.findDispatch(dispatchId)
  if (idx === undefined) return page(404, 'This course is no longer available.')
  const d = catalog.dispatch(idx)
  const expired = d.expirationMs !== null && d.expirationMs < ctx.options.clock()
  if (!d.enabled || expired) return page(403, 'This course is not available. Contact your administrator.')
  const course = catalog.course(d.courseIdx).title
  const destination = catalog.destination(d.destinationIdx).name
  return page(200, `Simulated launch of ${course} for ${destination}.`)
}
