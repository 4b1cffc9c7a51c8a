/**
 * /v2/session (subprotocol `svc.avatar.v2`; docs/protocol-v2.md): one socket carrying
 * both directions. Text frames are JSON control messages; binary frames start with a
 * one-byte tag: 0x01 fMP4 media (box to client), 0x02 one PCM16 mic frame (client to box).
 */
import type { WebSocket } from 'ws';
import {
  readV2ClientText,
  TAG_MEDIA,
  TAG_MIC,
  V2_SUBPROTOCOL,
  type V2ChatAck,
  type V2Pong,
  type V2SessionMessage,
} from '../../contract/edge/messages.js';
import type { z } from 'zod';
import type { EdgeSession } from '../session/edge-session.js';
import { micFrame } from './mic-frames.js';
import { withMediaFaults } from './media-faults.js';
import { messageBytes, wsChannel } from './ws-channel.js';

export { V2_SUBPROTOCOL };

const tagMedia = Buffer.from([TAG_MEDIA]);

export function attachV2(ws: WebSocket, s: EdgeSession, chat: (text: string) => string): void {
  const ch = withMediaFaults(
    wsChannel(ws, ['media', 'control', 'events'], {
      mime: () => null, // announced in the `session` message below
      media: (b) => [tagMedia, b],
    }),
    ws,
    s,
  );
  let hello = false;
  const fail = (u: { error: string; detail: string }) =>
    ch.sendJson({ type: 'error', error: u.error, detail: u.detail });
  ws.on('close', () => s.live.detach(ch));
  ch.sendJson({
    type: 'session',
    protocol: 2,
    session_id: s.live.id,
    mime: s.stream?.mime ?? null,
    render: !!s.stream,
    cap_seconds: s.live.snapshot.capSeconds,
  } satisfies z.input<typeof V2SessionMessage>);
  ws.on('message', (data, isBinary) => {
    const buf = messageBytes(data);
    if (isBinary) {
      if (buf[0] !== TAG_MIC)
        return fail({
          error: 'bad_tag',
          detail: `binary frames from the client start with 0x02 (mic PCM16); got 0x${(buf[0] ?? 0).toString(16).padStart(2, '0')}`,
        });
      const f = micFrame(buf.subarray(1), hello, 2);
      if (f.kind === 'error') return fail(f);
      if (f.kind === 'frame') s.micFrame(f.samples);
      return;
    }
    const m = readV2ClientText(buf.toString('utf8'));
    if (!m.ok) return fail(m);
    switch (m.msg.type) {
      case 'hello':
        hello = true;
        return s.hello(m.msg.lang ?? null);
      case 'chat':
        return ch.sendJson({ type: 'chat_ack', speech_id: chat(m.msg.text) } satisfies z.input<
          typeof V2ChatAck
        >);
      case 'ping':
        return ch.sendJson({ type: 'pong', session_ms: s.live.clockMs } satisfies z.input<
          typeof V2Pong
        >);
    }
  });
  s.attach(ch);
}
