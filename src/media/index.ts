/**
 * Media shared by the edge, the idle-media builder and speak (issue 8 item 5). The edge's
 * entry point is the session stream; docs/media.md explains formats, lip sync and costs.
 */
export { createSessionStream } from './session-stream.js';
export type {
  SessionStream,
  SessionStreamOptions,
  ReplyHandle,
  ReplyResult,
  FragmentInfo,
  FragmentKind,
} from './session-stream.js';
export {
  faceFromStyle,
  faceFromPhoto,
  DEFAULT_WIDTH,
  DEFAULT_HEIGHT,
  type FaceSource,
} from './face-source.js';
export { loadIdleLoop, renderLoopClip, renderStillLoop, type IdleLoop } from './idle-loop.js';
export { monotonicClock, type Clock } from '../contract/clock.js';
export { MEDIA_FPS, AUDIO_RATE, FRAGMENT_MS, UNIT_MS } from './encoder.js';
export { hexToRgb, type FaceStyle } from './face.js';
export { renderSpeechClip, type SpeechClipOptions } from './speech-clip.js';
export { decodeAudio } from './audio.js';
