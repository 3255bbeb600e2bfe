/**
 * SCORM Cloud REST API v2 simulator: same paths and JSON shapes as
 * https://cloud.scorm.com/api/v2, deterministic generated data, live progress with
 * postbacks, and fault injection. See simulator.ts for the Simulator interface.
 */
export { startSimulator, type Simulator, type SimulatorStats } from './simulator'
export type { SimulatorData, SimulatorCounts, TestHelpers } from './test-helpers'
export type { DispatchChanges, RegistrationChanges } from './store'
export {
  DEFAULT_APP_ID,
  DEFAULT_EPOCH,
  DEFAULT_LIVE,
  DEFAULT_SECRET_KEY,
  NO_FAULTS,
  SIZE_PRESETS,
  resolveOptions,
  startOfUtcDay,
  type FaultOptions,
  type LiveOptions,
  type PagingMode,
  type RateLimitBurst,
  type SimulatorOptions,
  type SimulatorOptionsInput,
  type SimulatorSizes,
  type SizePreset,
} from './options'
export type { RequestStats } from './http-server'
export type { FaultStats } from './faults'
export type { PostbackStats } from './postback'
