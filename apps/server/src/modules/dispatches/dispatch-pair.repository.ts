import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { firstRow } from '../../db/first-row'
import { company, course, dispatch } from '../../db/schema'
import { companyShownName as shownName } from '../../db/columns'

/** The mirror rows a dispatch of a course to a company is made from. */
export interface PairCompany {
  id: string
  /** The provider's name (what the sync writes into dispatch.destination_name). */
  name: string
  /** What screens show: an admin's rename, else the provider's name. */
  shownName: string
}

export interface PairCourse {
  id: string
  title: string
  titleOverride: string | null
}

export interface PairDispatch {
  id: string
  registrationCap: number
  registrationCount: number
}

export function createDispatchPairRepository(db: DbOrTx) {
  return {
    /** A company still present upstream. */
    async findCompany(id: string): Promise<PairCompany | null> {
      return firstRow(
        db
          .select({ id: company.id, name: company.name, shownName })
          .from(company)
          .where(and(eq(company.id, id), isNull(company.removedAt))),
      )
    },

    /** A course still present upstream (hidden ones too: visibility is a catalogue matter). */
    async findCourse(id: string): Promise<PairCourse | null> {
      return firstRow(
        db
          .select({ id: course.id, title: course.title, titleOverride: course.titleOverride })
          .from(course)
          .where(and(eq(course.id, id), isNull(course.removedAt))),
      )
    },

    /** The company's present dispatch of the course (docs/scorm-cloud-api.md §6: at most one per pair). */
    async findPairDispatch(companyId: string, courseId: string): Promise<PairDispatch | null> {
      return firstRow(
        db
          .select({
            id: dispatch.id,
            registrationCap: dispatch.registrationCap,
            registrationCount: dispatch.registrationCount,
          })
          .from(dispatch)
          .where(
            and(eq(dispatch.destinationId, companyId), eq(dispatch.courseId, courseId), isNull(dispatch.removedAt)),
          )
          .orderBy(desc(dispatch.providerCreated), dispatch.id),
      )
    },

    /** Enabled flag and expiry of each present dispatch of a company (the client's all-packages rule). */
    async companyDispatchStates(
      companyId: string,
    ): Promise<{ id: string; courseTitle: string; enabled: boolean; expirationDate: Date | null }[]> {
      return db
        .select({
          id: dispatch.id,
          courseTitle: dispatch.courseTitle,
          enabled: dispatch.enabled,
          expirationDate: dispatch.expirationDate,
        })
        .from(dispatch)
        .where(and(eq(dispatch.destinationId, companyId), isNull(dispatch.removedAt)))
        .orderBy(dispatch.courseTitle, dispatch.id)
    },

    /** Two retries of one submission at once: the second waits here until the first commits. */
    async lockCreation(dispatchId: string, tx: DbOrTx = db): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`dispatch-created:${dispatchId}`}))`)
    },
  }
}
export type DispatchPairRepository = ReturnType<typeof createDispatchPairRepository>
