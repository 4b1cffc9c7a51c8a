/**
 * The mint's `agent` object (spec 2 "Agent object", spec 7 "Tools at mint"): `hook` must
 * be https, the serialized object at most 1,024 bytes. It is embedded verbatim as the
 * session token's `agent` claim, so other keys are kept as sent.
 */
import { ErrorCode } from '../errors.js';
import { Limits } from '../limits.js';
import { isAllowedUrl, liftedByInsecureUrls } from './https-url.js';
import { accept, isPlainObject, reject, serializedBytes, type Validation } from './result.js';

export interface AgentObject {
  hook?: string;
  tok?: string;
  conv?: string;
  v?: unknown;
  [key: string]: unknown;
}

export interface AgentValidationOptions {
  /** Emulator relaxation (`--allow-insecure-urls`): accept plain-http hooks. Off by default. */
  allowInsecure?: boolean;
}

/**
 * Check order (ours): shape, `hook`, then the serialized size. `tok` and `conv`, when sent,
 * must be strings (they are compared and echoed by the hook, spec 5.7).
 */
export function validateAgent(
  input: unknown,
  opts: AgentValidationOptions = {},
): Validation<AgentObject | null> {
  if (input === undefined || input === null) return accept(null);
  if (!isPlainObject(input))
    return reject(
      400,
      ErrorCode.invalidRequest,
      'agent must be an object',
      'agent: expected an object',
    );
  if (input.hook !== undefined && input.hook !== null) {
    if (typeof input.hook !== 'string' || !isAllowedUrl(input.hook, opts.allowInsecure ?? false)) {
      return reject(
        400,
        ErrorCode.invalidAgentHook,
        liftedByInsecureUrls('agent.hook must be an https URL'),
      );
    }
  }
  for (const k of ['tok', 'conv'] as const) {
    if (input[k] !== undefined && input[k] !== null && typeof input[k] !== 'string') {
      return reject(
        400,
        ErrorCode.invalidRequest,
        `agent.${k} must be a string`,
        `agent.${k}: expected a string`,
      );
    }
  }
  if (serializedBytes(input) > Limits.agentBytes) {
    return reject(
      400,
      ErrorCode.agentClaimTooLarge,
      `agent is over ${Limits.agentBytes} serialized bytes`,
    );
  }
  return accept(input as AgentObject);
}
