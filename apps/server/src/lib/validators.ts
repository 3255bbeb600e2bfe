import { AjvCompiler } from '@fastify/ajv-compiler'

type BuildCompiler = ReturnType<typeof AjvCompiler>
type CompilerOptions = NonNullable<Parameters<BuildCompiler>[1]>

/**
 * Fastify's `schemaController.compilersFactory.buildValidator`: one Ajv for query strings, path
 * parameters and headers, another for JSON bodies. Text parts keep `coerceTypes: 'array'`: a
 * query parameter given twice arrives as an array, once as a string, and both must fit a list.
 * A JSON body already carries its types, so there a one-element array must not pass for the
 * string or number a field declares (`{"mode":["create"]}`), nor a lone value for a list: bodies
 * coerce between scalars only (`"5"` to 5, null to ""), as before.
 */
export function buildValidator() {
  const pool = AjvCompiler()
  return (externalSchemas: Parameters<BuildCompiler>[0], options?: CompilerOptions) => {
    const base = (options ?? {}) as CompilerOptions & { customOptions?: Record<string, unknown> }
    const forText = pool(externalSchemas, base)
    const forBodies = pool(externalSchemas, {
      ...base,
      customOptions: { ...base.customOptions, coerceTypes: true },
    } as CompilerOptions)
    return (route: Parameters<ReturnType<BuildCompiler>>[0]) =>
      route.httpPart === 'body' ? forBodies(route) : forText(route)
  }
}
