/**
 * /v2/session (subprotocol `svc.avatar.v2`; docs/protocol-v2.md): one socket carrying
 * both directions. Text frames are JSON control messages; binary frames start with a
 * one-byte tag: 0x01 fMP4 media (box to client), 0x02 one PCM16 mic frame (client to box).
 */
import type { WebSocket } from 'ws';
import { charCount } from '../../contract/limits.js';
import { CHAT_TEXT_MAX } from '../box/chat-route.js';
import type { EdgeSession } from '../session/edge-session.js';
import { helloLang, micFrame, parseObject } from './mic-frames.js';
import { wsChannel } from './ws-channel.js';

export const V2_SUBPROTOCOL = 'svc.avatar.v2';
export const TAG_MEDIA = 0x01;
export const TAG_MIC = 0x02;

const tagMedia = Buffer.from([TAG_MEDIA]);

export function attachV2(ws: WebSocket, s: EdgeSession, chat: (text: string) => string): void {
  const ch = wsChannel(ws, ['media', 'control', 'events'], {
    mime: () => null, // announced in the `session` message below
    media: (b) => [tagMedia, b],
  });
  let hello = false;
  const fail = (u: { error: string; detail: string }) => ch.sendJson({ type: 'error', error: u.error, detail: u.detail });
  ws.on('close', () => s.live.detach(ch));
  ch.sendJson({
    type: 'session',
    protocol: 2,
    session_id: s.live.id,
    mime: s.stream?.mime ?? null,
    render: !!s.stream,
    cap_seconds: s.live.snapshot.capSeconds,
  });
  ws.on('message', (data, isBinary) => {
    const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    if (isBinary) {
      if (buf[0] !== TAG_MIC) return fail({ error: 'bad_tag', detail: `binary frames from the client start with 0x02 (mic PCM16); got 0x${(buf[0] ?? 0).toString(16).padStart(2, '0')}` });
      const f = micFrame(buf.subarray(1), hello, 2);
      if (f.kind === 'error') return fail(f);
      if (f.kind === 'frame') s.micFrame(f.samples);
      return;
    }
    const p = parseObject(buf.toString('utf8'));
    if ('kind' in p) return fail(p);
    switch (p.msg.type) {
      case 'hello': {
        const h = helloLang(p.msg);
        if (h.kind === 'error') return fail(h);
        if (h.kind === 'hello') {
          hello = true;
          s.hello(h.lang);
        }
        return;
      }
      case 'chat': {
        const text = p.msg.text;
        if (typeof text !== 'string' || !text.trim() || charCount(text) > CHAT_TEXT_MAX) {
          return fail({ error: 'invalid_message', detail: `chat.text is a non-empty string of at most ${CHAT_TEXT_MAX} characters` });
        }
        ch.sendJson({ type: 'chat_ack', speech_id: chat(text) });
        return;
      }
      case 'ping':
        return ch.sendJson({ type: 'pong', session_ms: s.live.clockMs });
      default:
        return fail({ error: 'invalid_message', detail: 'client messages are hello, chat and ping (docs/protocol-v2.md)' });
    }
  });
  s.attach(ch);
}
