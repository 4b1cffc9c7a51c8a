/**
 * POST /chat?token=<session_token> (spec 4.6): `{ text }` injects a typed user turn. The
 * edge sets no CORS headers (call it from a server or a same-origin relay). Answers
 * `{ ok: true, speech_id }` at once; the turn and the spoken reply follow on the sockets.
 * Registered through the binder (server/binder.ts): the session token is the family's auth,
 * the body is the contract's ChatBody (ChatText: 1 to 4,096 characters, not blank).
 */
import type { Context } from 'hono';
import { edgeChat } from '../../contract/operations/boxes.js';
import { ApiError, apiRefusals } from '../../server/api-error.js';
import { bind, type Family, type Routes } from '../../server/binder.js';
import type { EdgeSession } from '../session/edge-session.js';
import { SessionRefused, type BoxSessions } from './box-sessions.js';
import { checkOrigin, OriginRefused } from './origin.js';
import { TokenRefused, tokenOf, type SessionClaims, type TokenVerifier } from './session-token.js';

/** Bytes of body read at most: 4096 characters of text, JSON-escaped, fit well inside. */
export const CHAT_BODY_MAX = 64 * 1024;

/** A refused token as /chat answers it: 403 for another box's token, else 401. */
const tokenRefusal = (e: TokenRefused) =>
  new ApiError(e.code === 'wrong_box' ? 403 : 401, e.code, { message: e.message });

/** The family of /chat: the session token (query or bearer) verified, its Origin allowed. */
function sessionTokenFamily(verify: TokenVerifier, sessions: BoxSessions): Family<SessionClaims> {
  return {
    ...apiRefusals,
    maxBodyBytes: CHAT_BODY_MAX,
    // No bytes are not JSON (spec 7: invalid_json "body not valid JSON"); not `{}`.
    emptyBody: () => {
      throw apiRefusals.invalidJson('request body is empty: send {"text": "..."}');
    },
    async auth(c: Context): Promise<SessionClaims> {
      const token = tokenOf(new URL(c.req.url), c.req.header('authorization'));
      if (!token)
        throw new ApiError(401, 'unauthorized', {
          message:
            'missing session token: pass ?token=<session_token> or Authorization: Bearer <session_token>',
        });
      try {
        const open = sessions.get(peekSub(token) ?? '');
        const claims = await verify(token, { allowExpired: !!open && !open.live.ended });
        checkOrigin(claims, c.req.header('origin'));
        return claims;
      } catch (e) {
        if (e instanceof TokenRefused) throw tokenRefusal(e);
        if (e instanceof OriginRefused) throw new ApiError(403, e.code, { message: e.message });
        throw e;
      }
    },
  };
}

export function registerChat(
  app: Routes,
  verify: TokenVerifier,
  sessions: BoxSessions,
  chat: (s: EdgeSession, text: string) => string,
): void {
  bind(app, sessionTokenFamily(verify, sessions), edgeChat, async ({ auth, body }) => {
    let s: EdgeSession;
    try {
      s = await sessions.open(auth);
    } catch (e) {
      if (e instanceof SessionRefused) throw new ApiError(e.status, e.code, { message: e.message });
      // The control plane refused the seat's connect: a token expired since the mint (401).
      if (e instanceof TokenRefused) throw tokenRefusal(e);
      throw e;
    }
    return { ok: true as const, speech_id: chat(s, body.text) };
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
