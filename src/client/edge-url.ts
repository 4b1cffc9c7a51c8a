/** Moved to src/contract/edge/url.ts (pure: the browser client shares it). */
export * from '../contract/edge/url.js';
