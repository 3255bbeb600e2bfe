/**
 * Live learners during the reads: registration postbacks posted to the server's
 * webhook at a steady rate, as SCORM Cloud sends them while learners work: progress of existing
 * registrations (time tracked grows, last access is now, some complete), spread over the whole
 * mirror with the big dispatch's share of it.
 */
import { POSTBACK_PASSWORD, POSTBACK_USER } from './config'
import type { SqlRunner } from './sql-runner'

export interface Learner {
  id: string
  instance: number
  dispatchId: string
  courseId: string
  learnerId: string
  firstName: string
  lastName: string
  email: string
  seconds: number
}

export interface PostbackDriver {
  stop(): Promise<{ sent: number; statuses: Record<string, number>; perSecond: number }>
}

export async function loadLearners(db: SqlRunner, count: number): Promise<Learner[]> {
  const { rows } = await db.query<{
    id: string
    instance: number
    dispatch_id: string
    course_id: string
    learner_id: string
    learner_first_name: string
    learner_last_name: string
    learner_email: string
    total_seconds_tracked: number
  }>(
    `select id, instance, dispatch_id, course_id, learner_id, learner_first_name, learner_last_name, learner_email,
            total_seconds_tracked
     from registration tablesample system (2) repeatable (7) where removed_at is null limit $1`,
    [count],
  )
  return rows.map((r) => ({
    id: r.id,
    instance: r.instance,
    dispatchId: r.dispatch_id,
    courseId: r.course_id,
    learnerId: r.learner_id,
    firstName: r.learner_first_name,
    lastName: r.learner_last_name,
    email: r.learner_email,
    seconds: Number(r.total_seconds_tracked),
  }))
}

/** Posts `perSecond` postbacks a second to the webhook until stopped. */
export function startPostbacks(baseUrl: string, learners: Learner[], perSecond: number): PostbackDriver {
  const authorization = `Basic ${Buffer.from(`${POSTBACK_USER}:${POSTBACK_PASSWORD}`).toString('base64')}`
  const statuses: Record<string, number> = {}
  const inFlight = new Set<Promise<void>>()
  let sent = 0
  let next = 0
  const started = performance.now()
  const post = () => {
    const learner = learners[next % learners.length]!
    next += 1
    learner.seconds += 30 + (next % 90)
    const now = new Date().toISOString()
    const completed = next % 7 === 0
    const body = {
      id: learner.id,
      instance: learner.instance,
      dispatchId: learner.dispatchId,
      updated: now,
      registrationCompletion: completed ? 'COMPLETED' : 'INCOMPLETE',
      registrationSuccess: completed ? (next % 3 === 0 ? 'FAILED' : 'PASSED') : 'UNKNOWN',
      ...(completed ? { score: { scaled: 50 + (next % 50) }, completedDate: now } : {}),
      totalSecondsTracked: learner.seconds,
      lastAccessDate: now,
      course: { id: learner.courseId },
      learner: {
        id: learner.learnerId,
        firstName: learner.firstName,
        lastName: learner.lastName,
        email: learner.email,
      },
    }
    const request = fetch(`${baseUrl}/api/webhooks/scorm-cloud/registrations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify(body),
    })
      .then(async (res) => {
        await res.arrayBuffer()
        statuses[res.status] = (statuses[res.status] ?? 0) + 1
      })
      .catch(() => {
        statuses.error = (statuses.error ?? 0) + 1
      })
      .finally(() => inFlight.delete(request))
    inFlight.add(request)
    sent += 1
  }
  const timer = setInterval(post, 1000 / perSecond)
  return {
    async stop() {
      clearInterval(timer)
      await Promise.all(inFlight)
      const seconds = (performance.now() - started) / 1000
      return { sent, statuses, perSecond: Math.round((sent / seconds) * 10) / 10 }
    },
  }
}
