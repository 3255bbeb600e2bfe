import { http, HttpResponse, type JsonBodyType } from 'msw'

/**
 * A fixture's maker: a fresh copy of the defaults (nested lists and objects made anew each time, so
 * that a test changing one changes no other test's), with a test's overrides on top.
 */
export const fixtureBuilder =
  <T>(defaults: () => T) =>
  (overrides: Partial<T> = {}): T => ({ ...defaults(), ...overrides })

/** A GET handler whose JSON answer is built from the path's `:id`. */
export const getById = <T extends JsonBodyType>(path: string, answer: (id: string) => T) =>
  http.get<{ id: string }>(path, ({ params }) => HttpResponse.json(answer(params.id)))
