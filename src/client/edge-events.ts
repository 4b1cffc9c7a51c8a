/** Moved to src/contract/edge/events.ts (pure: the browser client shares it). */
export * from '../contract/edge/events.js';
