// The API's types come from @portal/shared: one schema for server and browser (docs/architecture.md §4).
export type { LogActionBody, SessionResponse, User } from '@portal/shared'
