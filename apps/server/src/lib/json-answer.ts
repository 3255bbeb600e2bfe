import type { FastifyReply } from 'fastify'

/** Text that is JSON already (rows PostgreSQL wrote as JSON: db/json-rows.ts), written as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * An answer part of whose values are JSON text already: the rows of a list, written
 * by PostgreSQL, which the server passes on without parsing and serialising them. `text()` is the
 * whole answer, its keys in the order given (the order of the route's response schema).
 */
export class JsonAnswer<T extends Record<string, unknown>> {
  constructor(readonly parts: { [K in keyof T]: T[K] | JsonText }) {}

  text(): string {
    const members = Object.entries(this.parts).map(
      ([key, value]) => `${JSON.stringify(key)}:${value instanceof JsonText ? value.text : JSON.stringify(value)}`,
    )
    return `{${members.join(',')}}`
  }
}

/**
 * Sends such an answer as it is. The route keeps its response schema for the OpenAPI document;
 * the tests of each list check every row against that schema and against the objects the rest
 * of the API gives (the *.json-rows.test.ts files).
 */
export function sendJsonAnswer<T extends Record<string, unknown>>(reply: FastifyReply, answer: JsonAnswer<T>) {
  return reply.type('application/json; charset=utf-8').send(answer.text() as never)
}
