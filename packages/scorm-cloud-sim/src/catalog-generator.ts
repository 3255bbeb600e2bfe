/** Generates courses and destinations (companies). Each item draws from its own hash stream. */
import { STREAM, chance, intBetween, pick, rngFor, shuffleHead, weighted } from './prng'
import { DAY, toSecond, type CourseRecord, type DestinationRecord } from './records'
import type { CourseLearningStandard } from '@portal/server/scorm-cloud-types'
import {
  COMPANY_PREFIXES,
  COMPANY_SUFFIXES,
  COMPANY_TLDS,
  COURSE_TOPICS,
  DESTINATION_TAGS,
  FIRST_NAMES,
  LAST_NAMES,
  REALM_OWNER_EMAIL,
  TITLE_PATTERNS,
  slugify,
} from './words'

const STANDARDS: ReadonlyArray<readonly [CourseLearningStandard, number]> = [
  ['SCORM12', 50],
  ['SCORM20044THEDITION', 25],
  ['SCORM20043RDEDITION', 8],
  ['CMI5', 8],
  ['XAPI', 5],
  ['AICC', 4],
]

const VERSIONS: ReadonlyArray<readonly [number, number]> = [
  [0, 45],
  [1, 30],
  [2, 15],
  [3, 7],
  [4, 3],
]

/** Random instant in [from, to], whole seconds. */
export function between(rng: () => number, fromMs: number, toMs: number): number {
  return toSecond(fromMs + rng() * Math.max(0, toMs - fromMs))
}

export function generateCourses(seed: number, count: number, epochMs: number): CourseRecord[] {
  // All topic x pattern combinations in a seeded order give unique titles; beyond that a
  // numbered "Part n" keeps them unique for very large catalogues.
  const combos = COURSE_TOPICS.flatMap((topic) => TITLE_PATTERNS.map((pattern) => [topic, pattern] as const))
  shuffleHead(rngFor(seed, STREAM.course, 0xffff_ffff), combos)
  const courses: CourseRecord[] = []
  for (let idx = 0; idx < count; idx++) {
    const rng = rngFor(seed, STREAM.course, idx)
    const combo = combos[idx % combos.length]
    if (!combo) throw new Error('no course title combinations')
    const [[topic, topicTags], pattern] = combo
    const round = Math.floor(idx / combos.length)
    const title = pattern.replace('%', topic) + (round > 0 ? ` Part ${round + 1}` : '')
    const id = slugify(title)
    const createdMs = between(rng, epochMs - 730 * DAY, epochMs - 365 * DAY)
    const updatedMs = chance(rng, 0.6) ? between(rng, createdMs, epochMs - DAY) : createdMs
    const tags = [...topicTags]
    if (chance(rng, 0.25)) tags.push('mandatory')
    courses.push({
      idx,
      id,
      title,
      createdMs,
      updatedMs,
      version: weighted(rng, VERSIONS),
      standard: weighted(rng, STANDARDS),
      tags,
      scored: chance(rng, 0.75),
      xapiActivityId: `https://courses.learning-provider.example/${id}`,
    })
  }
  return courses
}

export function generateDestinations(seed: number, count: number, epochMs: number): DestinationRecord[] {
  const combos = COMPANY_PREFIXES.flatMap((prefix) => COMPANY_SUFFIXES.map((suffix) => `${prefix} ${suffix}`))
  shuffleHead(rngFor(seed, STREAM.destination, 0xffff_ffff), combos)
  const destinations: DestinationRecord[] = []
  for (let idx = 0; idx < count; idx++) {
    const rng = rngFor(seed, STREAM.destination, idx)
    const round = Math.floor(idx / combos.length)
    const name = (combos[idx % combos.length] ?? 'Company') + (round > 0 ? ` ${round + 1}` : '')
    const id = slugify(name)
    const createdMs = between(rng, epochMs - 700 * DAY, epochMs - 120 * DAY)
    const updatedMs = chance(rng, 0.5) ? between(rng, createdMs, epochMs - DAY) : createdMs
    const tags = shuffleHead(rng, [...DESTINATION_TAGS], 2).slice(0, intBetween(rng, 0, 2))
    const record: DestinationRecord = {
      idx,
      id,
      name,
      createdMs,
      updatedMs,
      tags,
      email: REALM_OWNER_EMAIL,
      domain: `${id.replace(/-/g, '')}.${pick(rng, COMPANY_TLDS)}`,
    }
    if (chance(rng, 0.4)) record.notes = `Account manager: ${pick(rng, FIRST_NAMES)} ${pick(rng, LAST_NAMES)}`
    destinations.push(record)
  }
  return destinations
}
