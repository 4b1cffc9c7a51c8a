/** Moved to src/contract/edge/frames.ts (pure: the browser client shares it). */
export * from '../contract/edge/frames.js';
