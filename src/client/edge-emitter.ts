/** Moved to src/contract/edge/emitter.ts (pure: the browser client shares it). */
export * from '../contract/edge/emitter.js';
