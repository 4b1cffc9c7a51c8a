/**
 * The v1 sockets of spec 4.6: /mse (downlink: `{ mime }` then fMP4), /mic_stream (uplink:
 * hello then PCM16 frames; partial/turn/error back, spec 6.1) and /events (agent_event,
 * status and turn frames). Each is one Channel of the session.
 */
import type { WebSocket } from 'ws';
import type { EdgeSession } from '../session/edge-session.js';
import { readV1ClientText } from '../../contract/edge/messages.js';
import { micFrame } from './mic-frames.js';
import { withMediaFaults } from './media-faults.js';
import { messageBytes, wsChannel } from './ws-channel.js';

const plain = { mime: (mime: string) => ({ mime }), media: (b: Buffer) => b };

export function attachMse(ws: WebSocket, s: EdgeSession): void {
  const ch = withMediaFaults(wsChannel(ws, ['media'], plain), ws, s);
  ws.on('close', () => s.live.detach(ch));
  ws.on('message', () =>
    ch.sendJson({ type: 'error', error: 'invalid_message', detail: '/mse is downlink only' }),
  );
  if (!s.stream)
    ch.sendJson({
      type: 'error',
      error: 'render_disabled',
      detail:
        'this session is brain-only (config.render false): no media; turns arrive on /mic_stream and /events',
    });
  s.attach(ch);
}

export function attachEvents(ws: WebSocket, s: EdgeSession): void {
  const ch = wsChannel(ws, ['events'], plain);
  ws.on('close', () => s.live.detach(ch));
  ws.on('message', () =>
    ch.sendJson({ type: 'error', error: 'invalid_message', detail: '/events is downlink only' }),
  );
  s.attach(ch);
  ch.sendJson(s.status());
}

export function attachMic(ws: WebSocket, s: EdgeSession): void {
  const ch = wsChannel(ws, ['control'], plain);
  let hello = false;
  const fail = (u: { error: string; detail: string }) =>
    ch.sendJson({ type: 'error', error: u.error, detail: u.detail });
  ws.on('close', () => s.live.detach(ch));
  ws.on('message', (data, isBinary) => {
    const buf = messageBytes(data);
    if (isBinary) {
      const f = micFrame(buf, hello, 1);
      if (f.kind === 'error') return fail(f);
      if (f.kind === 'frame') s.micFrame(f.samples);
      return;
    }
    const m = readV1ClientText(buf.toString('utf8'));
    if (!m.ok) return fail(m);
    hello = true;
    s.hello(m.msg.lang ?? null);
  });
  s.attach(ch);
}
