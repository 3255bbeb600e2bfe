import { Type, type Static } from 'typebox'
import { UI_ACTIONS, type UiAction } from '../activity-actions'
import { FreeJson } from './common'

export const LogActionBodySchema = Type.Object({
  action: Type.Unsafe<UiAction>({ type: 'string', enum: [...UI_ACTIONS] }),
  details: Type.Optional(
    Type.Union([
      Type.String({ maxLength: 2000 }),
      // A UI event's facts (the filter chosen, the page size): small and shallow.
      Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), { maxProperties: 30, ...FreeJson(4, 4000) }),
      Type.Null(),
    ]),
  ),
})
export type LogActionBody = Static<typeof LogActionBodySchema>

export const LogNavigationBodySchema = Type.Object({
  pathname: Type.String({ minLength: 1, maxLength: 2000, pattern: '^/' }),
})
export type LogNavigationBody = Static<typeof LogNavigationBodySchema>
