/** Programmatic API of the `avatar` package. */
export { startEmulator, type RunningEmulator } from './emulator/start.js';
export type { EmulatorOptions } from './emulator/options.js';
export { DrivableClock, ManualClock, systemClock, type Clock } from './emulator/clock.js';
export type { BootstrapKeys } from './emulator/bootstrap/bootstrap.js';
export { AvatarClient, ApiResponseError } from './client/index.js';
export * as contract from './contract/index.js';
