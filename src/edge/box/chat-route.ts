/**
 * POST /chat?token=<session_token> (spec 4.6): `{ text }` injects a typed user turn. The
 * edge sets no CORS headers (call it from a server or a same-origin relay). Answers
 * `{ ok: true, speech_id }` at once; the turn and the spoken reply follow on the sockets.
 */
import type { Context, Hono } from 'hono';
import { boundText } from '../../contract/echo.js';
import { CHAT_TEXT_MAX } from '../../contract/edge/messages.js';
import { charCount } from '../../contract/limits.js';
import { edgeChat } from '../../contract/operations/boxes.js';
import type { EdgeSession } from '../session/edge-session.js';
import { SessionRefused, type BoxSessions } from './box-sessions.js';
import { checkOrigin, OriginRefused } from './origin.js';
import { TokenRefused, tokenOf, type TokenVerifier } from './session-token.js';

/** Bytes of body read at most: 4096 characters of text, JSON-escaped, fit well inside. */
export const CHAT_BODY_MAX = 64 * 1024;

/** The body as text, or null once it passes `max` bytes (the rest is not read into memory). */
async function readLimited(req: Request, max: number): Promise<string | null> {
  if (Number(req.headers.get('content-length') ?? 0) > max) return null;
  const reader = req.body?.getReader();
  if (!reader) return '';
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    parts.push(value);
  }
  return Buffer.concat(parts).toString('utf8');
}

export function registerChat(
  app: Hono,
  verify: TokenVerifier,
  sessions: BoxSessions,
  chat: (s: EdgeSession, text: string) => string,
): void {
  const err = (c: Context, status: number, error: string, message: string) =>
    c.json({ error, message: boundText(message) }, status as 400);

  app.post(edgeChat.path, async (c) => {
    const token = tokenOf(new URL(c.req.url), c.req.header('authorization'));
    if (!token)
      return err(
        c,
        401,
        'unauthorized',
        'missing session token: pass ?token=<session_token> or Authorization: Bearer <session_token>',
      );
    let s: EdgeSession;
    try {
      const open = sessions.get(peekSub(token) ?? '');
      const claims = await verify(token, { allowExpired: !!open && !open.live.ended });
      checkOrigin(claims, c.req.header('origin'));
      const body = await readLimited(c.req.raw, CHAT_BODY_MAX);
      if (body === null)
        return err(
          c,
          413,
          'payload_too_large',
          `request body over ${CHAT_BODY_MAX} bytes; send { "text": "..." } with at most ${CHAT_TEXT_MAX} characters`,
        );
      let raw: unknown;
      try {
        raw = JSON.parse(body);
      } catch {
        return err(c, 400, 'invalid_json', 'the body is not valid JSON; send { "text": "..." }');
      }
      const text = (raw as { text?: unknown } | null)?.text;
      if (typeof text !== 'string' || text.trim() === '')
        return err(c, 400, 'invalid_request', 'text: a non-empty string is required');
      if (charCount(text) > CHAT_TEXT_MAX)
        return err(c, 400, 'invalid_request', `text: at most ${CHAT_TEXT_MAX} characters`);
      s = await sessions.open(claims);
      return c.json({ ok: true, speech_id: chat(s, text) });
    } catch (e) {
      if (e instanceof TokenRefused)
        return err(c, e.code === 'wrong_box' ? 403 : 401, e.code, e.message);
      if (e instanceof SessionRefused) return err(c, e.status, e.code, e.message);
      if (e instanceof OriginRefused) return err(c, 403, e.code, e.message);
      throw e;
    }
  });
}

export function peekSub(token: string): string | null {
  try {
    const p = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      sub?: unknown;
    };
    return typeof p.sub === 'string' ? p.sub : null;
  } catch {
    return null;
  }
}
