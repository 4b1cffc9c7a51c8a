export { AvatarClient, ApiResponseError, type ClientOptions, type CallInput, type CallResult } from './client.js';
export { speak, design, prebuild, speakTimings, type SpeakAnswer, type SpeakTimings, type DesignAnswer, type PrebuildAnswer } from './generations.js';
export { InferenceClient, multipart, type ChatMessage } from './inference.js';
