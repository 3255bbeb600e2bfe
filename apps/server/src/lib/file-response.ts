/** The media types of the file answers (lib/table-export.ts sends them with their parameters). */
export const CSV_MEDIA_TYPE = 'text/csv'
export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

const binary = { type: 'string', format: 'binary' } as const

/**
 * A route's 200 as a file of these media types in the OpenAPI document (a `content` map, see
 * the @fastify/swagger README, "Different content types responses"), rather than the
 * application/json it gives any schema. The body is a stream, which Fastify sends as it is:
 * the schemas here are never used to serialise it.
 */
export function fileResponse(description: string, ...mediaTypes: string[]) {
  return {
    200: {
      description,
      content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: binary }])),
    },
  }
}
