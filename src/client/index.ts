export { AvatarClient, ApiResponseError, type ClientOptions, type CallInput, type CallResult } from './client.js';
