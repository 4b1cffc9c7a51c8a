import type { AnyOperation } from '../operation.js';
import { coreOperations } from './core.js';
import { avatarOperations } from './avatars.js';
import { profileOperations } from './profiles.js';
import { voiceOperations } from './voices.js';
import { sessionOperations } from './sessions.js';
import { webhookOperations } from './webhooks.js';
import { generationOperations } from './generations.js';
import { inferenceOperations } from './inference.js';
import { operatorOperations } from './operator.js';
import { boxOperations } from './boxes.js';
import { toolOperations } from './tools.js';

/**
 * Every operation of the service, in one list: the emulator registers a handler for each,
 * the OpenAPI document and the generated CLI commands are built from it. A resource adds
 * its operations here (one import, one spread).
 */
export const operations: readonly AnyOperation[] = [
  ...(coreOperations as AnyOperation[]),
  ...(avatarOperations as AnyOperation[]),
  ...(profileOperations as AnyOperation[]),
  ...(voiceOperations as AnyOperation[]),
  ...(sessionOperations as AnyOperation[]),
  ...(webhookOperations as AnyOperation[]),
  ...(generationOperations as AnyOperation[]),
  ...(toolOperations as AnyOperation[]),
];

/**
 * Every HTTP operation of every surface: the control plane above, the inference family,
 * the emulator's operator routes, the internal box API and the edge's `POST /chat`. The
 * OpenAPI document is built from this list.
 */
export const allOperations: readonly AnyOperation[] = [
  ...operations,
  ...(inferenceOperations as AnyOperation[]),
  ...(operatorOperations as AnyOperation[]),
  ...(boxOperations as AnyOperation[]),
];

export function operationById(id: string): AnyOperation | undefined {
  return allOperations.find((o) => o.id === id);
}
