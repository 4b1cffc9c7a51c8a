import { ApiError } from '../../server/api-error.js';

/**
 * The JSON object of a route that reads its own body (speak, design): not UTF-8 or not
 * JSON is 400 `invalid_json` (spec 7 "Speak"); valid JSON that is not an object is 400
 * `invalid_request` (nothing in it could be a field).
 */
export function parseJsonObject(raw: Uint8Array): Record<string, unknown> {
  let value: unknown;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
    value = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    throw new ApiError(400, 'invalid_json', { message: 'request body is not valid JSON' });
  }
  if (value === undefined)
    throw new ApiError(400, 'invalid_json', {
      message: 'request body is empty; send a JSON object',
    });
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError(400, 'invalid_request', {
      message: 'request body must be a JSON object',
      detail: '(body): expected an object',
    });
  }
  return value as Record<string, unknown>;
}

/** 400 `missing_fields` naming every absent field (absent, null or an empty string). */
export function requireFields(
  body: Record<string, unknown>,
  names: readonly string[],
  message?: string,
): void {
  const missing = names.filter((n) => body[n] === undefined || body[n] === null || body[n] === '');
  if (missing.length > 0) {
    throw new ApiError(400, 'missing_fields', {
      message: message ?? `missing ${missing.join(', ')}`,
      detail: missing.join(','),
      extra: { fields: missing },
    });
  }
}
