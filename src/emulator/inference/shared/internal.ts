import type { InferenceServices } from '../services.js';
import type { InferenceCaller } from './caller.js';
import { sameSecret } from '../../../server/safe-equal.js';

/**
 * In-process requests the emulator makes to itself (batch lines): they carry a secret made
 * at start-up, never sent over a socket, and act for the batch's owner without counting
 * against the rate limits (the batch submission did).
 */
export const INTERNAL_HEADER = 'x-avatar-internal';

export function internalHeaders(
  svc: InferenceServices,
  caller: InferenceCaller,
): Record<string, string> {
  return {
    [INTERNAL_HEADER]: `${svc.internalSecret}.${Buffer.from(JSON.stringify(caller)).toString('base64url')}`,
  };
}

export function internalCaller(
  svc: InferenceServices,
  value: string | undefined,
): InferenceCaller | null {
  if (!value) return null;
  const dot = value.indexOf('.');
  if (!sameSecret(value.slice(0, Math.max(0, dot)), svc.internalSecret)) return null;
  try {
    return JSON.parse(
      Buffer.from(value.slice(dot + 1), 'base64url').toString('utf8'),
    ) as InferenceCaller;
  } catch {
    return null;
  }
}
