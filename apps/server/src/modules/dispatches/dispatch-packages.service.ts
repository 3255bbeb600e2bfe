import { Readable } from 'node:stream'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { DISPATCH_ACTION_MESSAGES as M, companyPackagesFileName, ownCompanyOnly, packageFileName } from '@portal/shared'
import { AppError } from '../../lib/app-error'
import { ScormCloudError } from '../scorm-cloud/scorm-cloud.errors'
import type { DeliveryRepository } from '../delivery/delivery.repository'
import { companyPackagesZip, type LeftOut } from './company-packages-zip'
import { isExpired } from './dispatch-mirror.service'
import type { DispatchPairRepository } from './dispatch-pair.repository'
import type { EditContext, ProviderDeps } from './dispatch-update.service'
import { auditEntry } from '../../lib/actor'

/** A download ready to send: the provider's body, unread, and what the browser is told. */
export interface PackageDownload {
  body: Readable
  fileName: string
  /** The provider's Content-Length, when it sent one. */
  contentLength: string | null
}

/** Turns the provider's streaming answer into a Node stream that reads only as fast as we send. */
function toDownload(response: Response, fileName: string): PackageDownload {
  if (!response.body) throw new ScormCloudError('SCORM Cloud sent an empty package.', response.status, false)
  const length = response.headers.get('content-length')
  return {
    body: Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>),
    fileName,
    contentLength: length && /^\d+$/.test(length) ? length : null,
  }
}

/**
 * Package downloads: the provider's zip streamed through, never buffered. Clients
 * reach their own company's dispatches only (another company's is 404, as for the dispatch),
 * and not a disabled or expired one; staff may download any. Each download is logged
 * (DISPATCH_PACKAGE_DOWNLOADED) once the provider has answered, before the first byte goes out.
 */
export function createDispatchPackagesService(
  deps: Omit<ProviderDeps, 'db'> & {
    pairs: DispatchPairRepository
    /** The style sheets (`cssUrl`) packages are fetched with. */
    delivery: Pick<DeliveryRepository, 'cssUrls'>
  },
) {
  const { pairs, activity } = deps
  const requireClient = () => {
    const client = deps.client()
    if (!client) throw new AppError('NOT_READY', M.notConfigured)
    return client
  }

  /** DISPATCH_PACKAGE_DOWNLOADED with the file's size; when it cannot be written, nothing is sent. */
  async function recorded(download: PackageDownload, ctx: EditContext, details: Record<string, unknown>) {
    const bytes = download.contentLength === null ? null : Number(download.contentLength)
    await activity
      .record(auditEntry(ctx, 'DISPATCH_PACKAGE_DOWNLOADED', { ...details, bytes }))
      .catch((error: unknown) => {
        download.body.destroy()
        throw error
      })
    return download
  }

  return {
    async dispatchPackage(id: string, ctx: EditContext, signal: AbortSignal): Promise<PackageDownload> {
      const row = await deps.dispatches.requireVisible(ctx.viewer, id)
      if (ownCompanyOnly(ctx.viewer.role)) {
        if (!row.enabled) throw new AppError('FORBIDDEN', M.disabled)
        if (isExpired(row.expirationDate)) throw new AppError('FORBIDDEN', M.expired)
      }
      const css = await deps.delivery.cssUrls(row.destinationId)
      const response = await requireClient().dispatchZip(id, signal, css.dispatches.get(id) ?? css.company)
      const download = toDownload(response, packageFileName(row.destinationName, row.courseTitle))
      return recorded(download, ctx, {
        dispatchId: id,
        companyId: row.destinationId,
        companyName: row.destinationName,
        courseTitle: row.courseTitle,
      })
    },

    /**
     * Every package of a company in one zip (a client's company is its own; another id is 404).
     * Disabled and expired dispatches are left out, for everyone, and a text file in the zip
     * names them: SCORM Cloud's destination zip cannot leave one out, so then (and when a
     * dispatch has its own style sheet) the portal writes the zip from the single packages;
     * otherwise the provider's zip is streamed through as it comes.
     */
    async companyPackages(
      requestedCompanyId: string | undefined,
      ctx: EditContext,
      signal: AbortSignal,
    ): Promise<PackageDownload> {
      const { viewer } = ctx
      let companyId = requestedCompanyId
      if (ownCompanyOnly(viewer.role)) {
        if (!viewer.companyId || (companyId !== undefined && companyId !== viewer.companyId)) {
          throw new AppError('NOT_FOUND', M.companyNotFound)
        }
        companyId = viewer.companyId
      }
      if (!companyId)
        throw new AppError('RULE_VIOLATION', M.companyRequired, {
          details: [{ field: 'companyId', message: M.companyRequired }],
        })
      const company = await pairs.findCompany(companyId)
      if (!company) throw new AppError('NOT_FOUND', M.companyNotFound)
      const client = requireClient()
      const states = await pairs.companyDispatchStates(company.id)
      const leftOut: LeftOut[] = []
      const live: typeof states = []
      for (const d of states) {
        if (!d.enabled) leftOut.push({ id: d.id, courseTitle: d.courseTitle, reason: 'disabled' })
        else if (isExpired(d.expirationDate)) leftOut.push({ id: d.id, courseTitle: d.courseTitle, reason: 'expired' })
        else live.push(d)
      }
      const css = await deps.delivery.cssUrls(company.id)
      const fileName = companyPackagesFileName(company.shownName)
      let download: PackageDownload
      if (leftOut.length === 0 && css.dispatches.size === 0) {
        download = toDownload(await client.destinationZip(company.id, signal, css.company), fileName)
      } else {
        const entries = live.map((d) => ({ ...d, cssUrl: css.dispatches.get(d.id) ?? css.company }))
        const body = companyPackagesZip(client, company.shownName, entries, leftOut, signal)
        download = { body, fileName, contentLength: null }
      }
      return recorded(download, ctx, {
        allPackages: true,
        companyId: company.id,
        leftOut: leftOut.map((d) => d.id),
        companyName: company.shownName,
      })
    },
  }
}
export type DispatchPackagesService = ReturnType<typeof createDispatchPackagesService>
