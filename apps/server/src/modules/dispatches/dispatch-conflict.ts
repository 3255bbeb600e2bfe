import type { FastifyReply } from 'fastify'
import type { DispatchConflict } from '@portal/shared'
import { AppError } from '../../lib/app-error'

/**
 * 409 for a course and company that already have a dispatch: never a silent change.
 * It carries the existing dispatch's id so the screen can link to it.
 */
export class DispatchConflictError extends AppError {
  constructor(
    readonly dispatchId: string,
    message: string,
  ) {
    super('CONFLICT', message)
  }
}

/**
 * Runs a handler and answers a DispatchConflictError as `{ code, message, dispatchId }` (the
 * shared error handler sends code and message only); any other error goes on to it.
 */
export async function withConflictAnswer<T>(reply: FastifyReply, run: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await run()
  } catch (error) {
    if (!(error instanceof DispatchConflictError)) throw error
    const body: DispatchConflict = { code: error.code, message: error.message, dispatchId: error.dispatchId }
    return reply.code(409).send(body)
  }
}
