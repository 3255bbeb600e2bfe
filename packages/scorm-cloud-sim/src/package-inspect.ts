/**
 * Test support (never used by the simulator itself): opens a dispatch package the way an LMS
 * would, with maintained libraries (fflate to unzip, fast-xml-parser to check and read the
 * manifest), so tests of the simulator, the server and the browser check the same things.
 */
import { unzipSync } from 'fflate'
import { XMLParser, XMLValidator } from 'fast-xml-parser'

export interface PackageManifest {
  /** Schema version from the manifest metadata (e.g. "1.2"). */
  schemaVersion: string
  organizations: number
  /** Resources marked adlcp:scormtype="sco". */
  scos: number
  /** The SCO's href, e.g. launch.html. */
  launchHref: string
}

export interface InspectedPackage {
  files: Record<string, Uint8Array>
  manifest: PackageManifest
  /** The launch page of the SCO, as text. */
  launchPage: string
}

const asList = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value]

type Node = Record<string, unknown>

/** Throws with a reason when the manifest is not well-formed XML or not SCORM 1.2. */
export function readManifest(xml: string): PackageManifest {
  const valid = XMLValidator.validate(xml)
  if (valid !== true) throw new Error(`imsmanifest.xml is not well-formed: ${valid.err.msg} (line ${valid.err.line})`)
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_' }).parse(xml) as Node
  const manifest = doc.manifest as Node | undefined
  if (!manifest) throw new Error('imsmanifest.xml has no <manifest> root')
  const organizations = asList((manifest.organizations as Node | undefined)?.organization as Node | Node[])
  const resources = asList((manifest.resources as Node | undefined)?.resource as Node | Node[])
  const scos = resources.filter((r) => r['@_adlcp:scormtype'] === 'sco')
  return {
    schemaVersion: String((manifest.metadata as Node | undefined)?.schemaversion ?? ''),
    organizations: organizations.length,
    scos: scos.length,
    launchHref: String(scos[0]?.['@_href'] ?? ''),
  }
}

export function inspectPackage(bytes: Uint8Array): InspectedPackage {
  const files = unzipSync(bytes)
  const manifestBytes = files['imsmanifest.xml']
  if (!manifestBytes) throw new Error(`no imsmanifest.xml in the package (files: ${Object.keys(files).join(', ')})`)
  const manifest = readManifest(new TextDecoder().decode(manifestBytes))
  const launch = files[manifest.launchHref]
  if (!launch) throw new Error(`the SCO's file ${manifest.launchHref} is not in the package`)
  return { files, manifest, launchPage: new TextDecoder().decode(launch) }
}

/** A destination zip: each inner zip inspected, by file name. */
export function inspectDestinationPackage(bytes: Uint8Array): Record<string, InspectedPackage> {
  const out: Record<string, InspectedPackage> = {}
  for (const [name, inner] of Object.entries(unzipSync(bytes))) out[name] = inspectPackage(inner)
  return out
}
