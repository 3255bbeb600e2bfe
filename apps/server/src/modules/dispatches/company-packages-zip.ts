import { Readable } from 'node:stream'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { safeFileNamePart } from '@portal/shared'
import { ZipFile } from 'yazl'
import type { ScormCloudClient } from '../scorm-cloud/scorm-cloud.client'
import { ScormCloudError } from '../scorm-cloud/scorm-cloud.errors'

export const LEFT_OUT_FILE = 'Left out - read me.txt'

export interface PackageEntry {
  id: string
  courseTitle: string
  cssUrl: string | null
}

export interface LeftOut {
  id: string
  courseTitle: string
  reason: 'disabled' | 'expired'
}

/** The note inside the zip: which dispatches are not in it, and why. */
export function leftOutText(companyName: string, leftOut: readonly LeftOut[]): string {
  const lines = [
    `Packages of ${companyName}.`,
    '',
    'These dispatches are not in this download because they cannot be launched:',
    ...leftOut.map((d) => `- ${d.courseTitle} (${d.reason}; dispatch ${d.id})`),
    '',
    'Ask your account manager to enable or extend them; their packages can then be downloaded again.',
    '',
  ]
  return lines.join('\r\n')
}

/**
 * A company's packages in one zip that the portal writes itself, since SCORM Cloud's
 * destination zip cannot leave a dispatch out: each live dispatch's package (the provider's
 * bytes, stored, one upstream request at a time, opened only when its turn comes) and a text
 * file naming those left out. A provider failure part-way ends the download with an error
 * (the browser sees an incomplete file), as a failing upstream stream does for a single package.
 */
export function companyPackagesZip(
  client: ScormCloudClient,
  companyName: string,
  entries: readonly PackageEntry[],
  leftOut: readonly LeftOut[],
  signal: AbortSignal,
): Readable {
  const zip = new ZipFile()
  const out = zip.outputStream as Readable
  const used = new Set<string>()
  for (const entry of entries) {
    let name = `${safeFileNamePart(entry.courseTitle, 'course')} - ${safeFileNamePart(entry.id, 'dispatch')}.zip`
    for (let n = 2; used.has(name); n++) name = name.replace(/( \(\d+\))?\.zip$/, ` (${n}).zip`)
    used.add(name)
    zip.addReadStreamLazy(name, { compress: false }, (callback) => {
      client
        .dispatchZip(entry.id, signal, entry.cssUrl)
        .then((response) => {
          if (!response.body) throw new ScormCloudError('SCORM Cloud sent an empty package.', response.status, false)
          callback(null, Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>))
        })
        .catch((error: unknown) => {
          out.destroy(error instanceof Error ? error : new Error(String(error)))
        })
    })
  }
  if (leftOut.length > 0) zip.addBuffer(Buffer.from(leftOutText(companyName, leftOut), 'utf8'), LEFT_OUT_FILE)
  zip.end()
  return out
}
