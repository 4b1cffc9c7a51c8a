export {
  AvatarClient,
  ApiResponseError,
  type ClientOptions,
  type CallInput,
  type CallInputOf,
  type CallOptions,
  type CallResult,
  type Untyped,
} from './client.js';
export {
  speak,
  design,
  prebuild,
  speakTimings,
  type SpeakAnswer,
  type SpeakTimings,
  type DesignAnswer,
  type PrebuildAnswer,
} from './generations.js';
export {
  InferenceClient,
  multipart,
  type BodyOf,
  type ChatCompletionChunk,
  type ChatMessage,
} from './inference.js';
export { mintAndWait, type MintWaitOptions } from './mint-queue.js';
export { connectEdge, type ConnectOptions } from './edge-connect.js';
export { EdgeClosedError, EdgeChatError } from './edge-v1.js';
export {
  MicPump,
  levelDb,
  realPacerClock,
  type PacerClock,
  type MicFrameInfo,
} from './edge-mic.js';
export { edgeSocketUrl, edgeHttpUrl } from './edge-url.js';
export * from './edge-events.js';
