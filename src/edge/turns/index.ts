/**
 * The edge's turn-taking rules as small pure modules (issue 8 item 4), driven by frame
 * counts or an injected clock; the per-session coordinator wires them to the sockets.
 */
export { FRAME_MS, FRAME_SAMPLES } from './frames.js';
export {
  UtteranceDetector,
  UTTERANCE_DEFAULTS,
  type UtteranceEvent,
  type UtteranceTunables,
} from './utterance-detector.js';
export {
  completeness,
  EndOfTurnRule,
  END_OF_TURN_DEFAULTS,
  HANGOVER_ONLY,
  type Completeness,
  type EndOfTurnPolicy,
  type EndOfTurnTunables,
} from './end-of-turn.js';
export { PartialPolicy, PARTIAL_PLACEHOLDER, type PartialPolicyOptions } from './partials.js';
export {
  GreetingHold,
  GREETING_HOLD_DEFAULT_MS,
  GREETING_HOLD_MAX_MS,
  type GreetingReason,
  type GreetingState,
} from './greeting-hold.js';
export { BargeIn, BARGE_IN_MIN_SPEECH_MS } from './barge-in.js';
export { playedText, type PlayedText } from './played-text.js';
