import { z } from 'zod';
import { charCount } from '../limits.js';
import { named } from '../registry.js';

export const Uuid = z.uuid();
/** Unix seconds (spec 2 conventions). */
export const UnixSeconds = z.number().int();

export const ErrorBodySchema = named(
  'Error',
  z
    .object({
      error: z.string().describe('error code (spec 7)'),
      message: z.string().optional(),
      retryable: z.boolean().optional(),
      detail: z.string().optional(),
    })
    .catchall(z.unknown()),
  'Control-plane error envelope (spec 7)',
);

/**
 * A string of at most `max` characters, counted as code points (`charCount`); the error
 * says `at most <max> characters`. The JSON Schema keeps `maxLength`, which counts the same.
 */
export function textOfAtMost(max: number, min = 0) {
  const base = min > 0 ? z.string().min(min) : z.string();
  return base
    .refine((s) => charCount(s) <= max, { message: `at most ${max} characters`, abort: true })
    .meta({ maxLength: max });
}

export const OkSchema = z.object({ ok: z.literal(true) });

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item) });
}

/** A `{wsId}` path parameter. */
export const WsParams = z.object({ wsId: Uuid.describe('workspace id') });
