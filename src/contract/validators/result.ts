import { boundText } from '../echo.js';

/**
 * What the contract validators return: the value they accept (normalized), or the exact
 * spec section 7 error (status, code, detail) the service answers. Pure data, so the
 * emulator, the edge and the CLI (`avatar tools validate`) share one implementation.
 */
export interface ValidationFailure {
  ok: false;
  status: number;
  /** The envelope's `error` code (spec 7), e.g. `invalid_config` or `schema_too_deep:lookup`. */
  error: string;
  /** The envelope's `detail`, when spec 7 names one (config codes). */
  detail?: string;
  /** Human explanation; never needed to branch on. */
  message: string;
}

export type Validation<T> = { ok: true; value: T } | ValidationFailure;

export const accept = <T>(value: T): Validation<T> => ({ ok: true, value });

/** A failure; caller input in its texts is echoed in bounded form (echo.ts). */
export function reject(
  status: number,
  error: string,
  message: string,
  detail?: string,
): ValidationFailure {
  const [e, m] = [boundText(error), boundText(message)];
  return detail === undefined
    ? { ok: false, status, error: e, message: m }
    : { ok: false, status, error: e, detail: boundText(detail), message: m };
}

/** A failure thrown instead of returned (for code that prefers exceptions). */
export class ContractValidationError extends Error {
  constructor(readonly failure: ValidationFailure) {
    super(
      failure.detail
        ? `${failure.error} (${failure.detail}): ${failure.message}`
        : `${failure.error}: ${failure.message}`,
    );
    this.name = 'ContractValidationError';
  }
}

/** The accepted value, or throw a ContractValidationError carrying the failure. */
export function unwrap<T>(v: Validation<T>): T {
  if (!v.ok) throw new ContractValidationError(v);
  return v.value;
}

/**
 * UTF-8 length of the JSON serialization (the spec's "serialized size"). A value nested
 * too deep to serialize (JSON.stringify recurses; a request body nested tens of thousands
 * of levels parses fine) is over every limit: Infinity, so the caller answers its
 * "too large" code instead of throwing.
 */
export function serializedBytes(value: unknown): number {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (e) {
    if (e instanceof RangeError) return Number.POSITIVE_INFINITY;
    throw e;
  }
  return new TextEncoder().encode(text ?? '').length;
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
