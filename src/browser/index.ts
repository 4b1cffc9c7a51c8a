/**
 * `avatar/browser`: the live session in a web page (docs/browser.md). Plain ESM, no
 * framework, no Node built-in: it imports only the contract's edge message shapes.
 */
export { connect, ChatRelayError } from './session.js';
export type {
  AvatarSession,
  ChatRelay,
  ConnectOptions,
  SessionEvent,
  SessionGrant,
} from './session.js';
export { mintSession, ApiError } from './mint.js';
export type { MintOptions, Queued } from './mint.js';
export { MsePlayer, mediaSourceClass, wholeBoxesLength } from './player.js';
export type { PlayerOptions } from './player.js';
export { startMic, MIC_FRAME_SAMPLES } from './mic.js';
export type { MicCapture, MicOptions } from './mic.js';
export { V2_SUBPROTOCOL } from './sockets.js';
export type { ClosedEvent, CloseReason, EdgeEvent } from '../contract/edge/events.js';
