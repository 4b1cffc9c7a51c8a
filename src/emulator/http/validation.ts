import type { Validation } from '../../contract/validators/result.js';
import { ApiError } from '../../server/api-error.js';

/**
 * A contract validator's result as the spec envelope: the accepted value, or an ApiError
 * with the validator's status, code, detail and message (spec 7).
 */
export function throwIfInvalid<T>(v: Validation<T>): T {
  if (v.ok) return v.value;
  throw new ApiError(v.status, v.error, { message: v.message, detail: v.detail });
}
