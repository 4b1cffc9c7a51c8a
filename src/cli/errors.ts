/**
 * Human lines for the service's error answers. Duck-typed so main.ts need not load the
 * HTTP client (undici) to report a failure (issue 7 item 12).
 */
import { wrapText } from './wrap.js';

export interface ApiErrorLike {
  name: 'ApiResponseError';
  status: number;
  code: string;
  body: unknown;
  headers: Record<string, string>;
  /** The nearest valid value for what the service did not find (main.ts fills it in). */
  suggestion?: string;
}

/** The persona a 404 says it did not find (`persona eva not found`), if that is the error. */
export function missingPersona(e: ApiErrorLike): string | undefined {
  if (e.code !== 'not_found') return undefined;
  return /^persona (\S+) not found/.exec(messageOf((e.body ?? {}) as Record<string, unknown>))?.[1];
}

export function isApiResponseError(e: unknown): e is ApiErrorLike {
  return (
    !!e &&
    typeof e === 'object' &&
    (e as { name?: unknown }).name === 'ApiResponseError' &&
    typeof (e as { status?: unknown }).status === 'number'
  );
}

const seconds = (n: number) =>
  n >= 3600 ? `${Math.round(n / 360) / 10} h` : n >= 120 ? `${Math.round(n / 60)} min` : `${n} s`;

/** The service's message: top level (control plane) or in `error` (the inference family). */
const messageOf = (b: Record<string, unknown>): string =>
  typeof b.message === 'string'
    ? b.message
    : b.error &&
        typeof b.error === 'object' &&
        typeof (b.error as { message?: unknown }).message === 'string'
      ? (b.error as { message: string }).message
      : '';

/** "retry in 40 s", "in 3600 s", "come back at 00:00 UTC": the message already says when. */
const saysWhen = (message: string) =>
  /\bretry in\b|\bin \d+ ?(s|min|h)\b|\bat \d\d:\d\d\b/i.test(message);

/**
 * What a user can do about a 429/402 (spec 7), with the retry_after the service gave. Said
 * once: when the service's message already says when to retry, only what to do is added
 * (the retry time came twice before, "retry in 40 s" and "retry in 40 s (retry_after 40)";
 * scripts read retry_after from --json).
 */
function advice(e: ApiErrorLike, b: Record<string, unknown>): string | null {
  const message = messageOf(b);
  const retry =
    typeof b.retry_after === 'number' ? b.retry_after : Number(e.headers['retry-after']) || null;
  const after = saysWhen(message) ? null : retry ? `retry in ${seconds(retry)}` : 'retry later';
  const join = (...parts: (string | null)[]) => parts.filter(Boolean).join('; ') || null;
  switch (e.code) {
    case 'concurrency_limit': {
      // The service's message may already say "release one": then only the CLI's command.
      if (/release one/i.test(message))
        return join('from the CLI: avatar sessions release <sessionId>', after);
      const inUse =
        typeof b.active === 'number' && typeof b.limit === 'number'
          ? `${b.active} of ${b.limit} concurrent sessions of the plan are in use: `
          : '';
      const reaper = /idle reaper/i.test(message)
        ? ''
        : ', or wait for the idle reaper to end a minted session that never connected';
      return join(
        `${inUse}release one with \`avatar sessions release <sessionId>\`${reaper}`,
        after,
      );
    }
    case 'rate_limited':
      return join(after && `too many mints from this key in the last minute: ${after}`);
    case 'quota_exhausted':
      return join(after && `the daily session minutes are used up: ${after}`);
    case 'rate_limit':
      // Inference (spec 8): counted per organisation over a sliding minute.
      return join(
        after,
        'the limit counts every key of the organisation over a sliding minute: wait, or spread the requests out',
      );
    case 'not_found':
      // `--persona nobody` (sessions live, mint, demo): where the valid keys are.
      if (!/^persona \S+ not found/.test(message)) return null;
      return (
        (e.suggestion ? `did you mean ${e.suggestion}? ` : '') +
        'the stock personas: avatar gallery list'
      );
    default:
      return e.status === 429 || e.status === 402 ? after : null;
  }
}

/**
 * `error: <code> (HTTP <status>) — <message> — detail: …` and, indented, what to do;
 * wrapped at word boundaries to `width` (a long service message wrapped mid-word at 80).
 */
export function formatApiError(e: ApiErrorLike, width = 80): string {
  const b = (e.body && typeof e.body === 'object' ? e.body : {}) as Record<string, unknown>;
  const parts = [`error: ${e.code} (HTTP ${e.status})`];
  if (typeof b.message === 'string') parts.push(b.message);
  if (typeof b.detail === 'string') parts.push(`detail: ${b.detail}`);
  if (b.error && typeof b.error === 'object') {
    const inner = b.error as Record<string, unknown>;
    if (typeof inner.message === 'string') parts.push(inner.message);
  }
  const line = wrapText(parts.join(' — '), width);
  const hint = advice(e, b);
  return hint ? `${line}\n${wrapText(hint, width - 2).replace(/^/gm, '  ')}` : line;
}
