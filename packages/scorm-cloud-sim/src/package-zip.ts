/**
 * Dispatch packages as SCORM Cloud serves them (docs/scorm-cloud-api.md §6.1 zip endpoints): a small SCORM 1.2
 * stub whose one SCO launches the course remotely, and a destination zip holding one such zip
 * per dispatch. Built with yazl as a stream with backpressure, entries stored (not deflated) so
 * the final size is known up front and sent as Content-Length; optional padding makes packages
 * of any size without holding them in memory.
 */
import { Readable } from 'node:stream'
import yazl from 'yazl'

export interface PackageSpec {
  dispatchId: string
  courseTitle: string
  destinationName: string
  /** Where the stub sends the learner: the simulator's launch page of this dispatch. */
  launchUrl: string
  paddingBytes: number
}

export interface ZipStream {
  stream: Readable
  /** The exact byte length of `stream`. */
  size: number
}

/** Fixed entry times: the same dispatch always gives the same bytes (tests compare them). */
const ENTRY_TIME = new Date('2026-01-01T00:00:00Z')
const STORED = { mtime: ENTRY_TIME, compress: false } as const
/** One block of noise repeated: more than deflate's 32 KiB window, so it does not compress. */
const NOISE = noiseBlock(64 * 1024)

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }
const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c)
/** Identifiers in a manifest are XML NCNames. */
const ncName = (text: string) => `d-${text.replace(/[^A-Za-z0-9._-]/g, '_')}`

/** imsmanifest.xml of the stub: SCORM 1.2, one organization, one item, one SCO. */
export function manifestXml(spec: Pick<PackageSpec, 'dispatchId' | 'courseTitle'>): string {
  const title = escapeXml(spec.courseTitle)
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${ncName(spec.dispatchId)}" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="organization">
    <organization identifier="organization">
      <title>${title}</title>
      <item identifier="item" identifierref="sco" isvisible="true">
        <title>${title}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="sco" type="webcontent" adlcp:scormtype="sco" href="launch.html">
      <file href="launch.html"/>
    </resource>
  </resources>
</manifest>
`
}

/** The stub's SCO: it hands the learner to the provider's launch URL of the dispatch. */
export function launchHtml(spec: Pick<PackageSpec, 'courseTitle' | 'launchUrl'>): string {
  const title = escapeXml(spec.courseTitle)
  const url = escapeXml(spec.launchUrl)
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<meta http-equiv="refresh" content="0; url=${url}">
</head>
<body>
<p>Launching ${title}&hellip;</p>
<p><a href="${url}">Open the course</a> if it does not start.</p>
</body>
</html>
`
}

/** `bytes` of noise, one shared block at a time: nothing is allocated per chunk. */
function padding(bytes: number): Readable {
  let left = bytes
  return new Readable({
    read() {
      if (left <= 0) {
        this.push(null)
        return
      }
      const chunk = left >= NOISE.length ? NOISE : NOISE.subarray(0, left)
      left -= chunk.length
      this.push(chunk)
    },
  })
}

function noiseBlock(length: number): Buffer {
  const block = Buffer.alloc(length)
  let x = 0x2545f491
  for (let i = 0; i < length; i++) {
    // xorshift32: deterministic, so package bytes are the same on every run.
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    block[i] = x & 0xff
  }
  return block
}

/** Ends the zip and resolves with its final size (known: every entry is stored, sizes given). */
function finish(zip: yazl.ZipFile): ZipStream {
  let size = -1
  // @types/yazl leaves out the callback's argument.
  ;(zip.end as (options: undefined, done: (total: number) => void) => void)(undefined, (total) => {
    size = total
  })
  if (size < 0) throw new Error('zip size is unknown')
  return { stream: zip.outputStream as Readable, size }
}

/** GET /dispatch/dispatches/{id}/zip: the stub of one dispatch. */
export function dispatchPackage(spec: PackageSpec): ZipStream {
  const zip = new yazl.ZipFile()
  zip.addBuffer(Buffer.from(manifestXml(spec)), 'imsmanifest.xml', STORED)
  zip.addBuffer(Buffer.from(launchHtml(spec)), 'launch.html', STORED)
  if (spec.paddingBytes > 0) {
    zip.addReadStreamLazy('padding.bin', { ...STORED, size: spec.paddingBytes }, (done) =>
      done(null, padding(spec.paddingBytes)),
    )
  }
  return finish(zip)
}

/** File name of one dispatch's zip inside a destination zip: the course, then the id (unique). */
export function innerPackageName(spec: Pick<PackageSpec, 'dispatchId' | 'courseTitle'>): string {
  const course = spec.courseTitle.replace(/[^A-Za-z0-9 ._-]+/g, ' ').trim() || 'course'
  return `${course} - ${spec.dispatchId.replace(/[^A-Za-z0-9._-]+/g, '_')}.zip`
}

/** GET /dispatch/destinations/{id}/dispatches/zip: one zip per dispatch, each built when it is read. */
export function destinationPackage(specs: PackageSpec[]): ZipStream {
  const zip = new yazl.ZipFile()
  for (const spec of specs) {
    const inner = dispatchPackage(spec)
    zip.addReadStreamLazy(innerPackageName(spec), { ...STORED, size: inner.size }, (done) => done(null, inner.stream))
  }
  return finish(zip)
}
