export { AvatarClient, ApiResponseError, type ClientOptions, type CallInput, type CallResult } from './client.js';
export { InferenceClient, multipart, type ChatMessage } from './inference.js';
