/**
 * The edge's sockets in a browser (spec 4.6): v1 (`/mse`, `/mic_stream`, `/events`) or v2
 * (`/v2/session`, subprotocol `svc.avatar.v2`, docs/protocol-v2.md), on the page's own
 * `WebSocket`. Both map onto the contract's one event stream (`EdgeEvent`). A browser
 * cannot read an upgrade refusal's HTTP status: a socket that closes before it opened is
 * reported `refused` with what the edge can have meant.
 */
import {
  V1_SOCKETS,
  v1Decoder,
  v2Decoder,
  type EdgeFrame,
  type V1Socket,
} from '../contract/edge/decode.js';
import { EdgeEmitter, reasonForClose } from '../contract/edge/emitter.js';
import type { ClosedEvent } from '../contract/edge/events.js';
import { TAG_MIC, V2_SUBPROTOCOL } from '../contract/edge/protocol.js';
import { edgeSocketUrl } from '../contract/edge/url.js';

export { V2_SUBPROTOCOL };
/** A page's message data (`binaryType` is `arraybuffer`) as the shared decoder's frame. */
const frameOf = (data: string | ArrayBuffer): EdgeFrame =>
  typeof data === 'string' ? data : new Uint8Array(data);

/** What a browser cannot tell apart when an upgrade is refused (docs/edge.md lists them). */
const REFUSED =
  "the edge refused the connection (token expired or invalid, session ended, or this page's origin is not in the domain_allowlist)";

export interface SocketOptions {
  connectUrl: string;
  token: string;
  /** BCP-47 tag of the mic `hello` (default `en`). */
  lang?: string;
}

/** The sockets of one session: events in, mic frames and (v2) typed turns out. */
export interface EdgeSockets {
  readonly protocol: 1 | 2;
  readonly emitter: EdgeEmitter;
  readonly ready: Promise<void>;
  sendAudio(frame: Uint8Array): void;
  /** v2 only: a `chat` message on the socket. */
  sendChat(text: string): void;
  close(): void;
}

/** Open one socket; `onOpen` runs once it is open, `onData` for every message. */
function openSocket(
  em: EdgeEmitter,
  url: string,
  path: string,
  protocols: string[] | undefined,
  state: { closing: boolean },
  onOpen: (ws: WebSocket) => void,
  onData: (data: string | ArrayBuffer) => void,
): { ws: WebSocket; opened: Promise<void> } {
  const ws = new WebSocket(url, protocols);
  ws.binaryType = 'arraybuffer';
  let open = false;
  const opened = new Promise<void>((resolve, reject) => {
    ws.onopen = () => {
      open = true;
      onOpen(ws);
      resolve();
    };
    ws.onmessage = (m) => onData(m.data as string | ArrayBuffer);
    ws.onclose = (c) => {
      const e: ClosedEvent = state.closing
        ? { type: 'closed', reason: 'client', code: c.code }
        : open
          ? {
              type: 'closed',
              reason: reasonForClose(c.code),
              code: c.code,
              detail: c.reason || undefined,
              socket: path,
            }
          : { type: 'closed', reason: 'refused', code: c.code, detail: REFUSED, socket: path };
      em.emit(e);
      reject(new Error(`${path}: ${e.detail ?? e.reason}`));
    };
  });
  opened.catch(() => undefined);
  return { ws, opened };
}

const closeAll = (sockets: Iterable<WebSocket>) => {
  for (const ws of sockets) {
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)
      ws.close(1000, 'client closed');
  }
};

export function openV1(opts: SocketOptions): EdgeSockets {
  const em = new EdgeEmitter();
  const state = { closing: false };
  const sockets = new Map<string, WebSocket>();
  em.emit({ type: 'status', state: 'connecting', protocol: 1 });
  const decode = v1Decoder();
  const onMessage = (path: V1Socket, data: string | ArrayBuffer) => {
    for (const e of decode(path, frameOf(data))) em.emit(e);
  };
  const opened = V1_SOCKETS.map((path) => {
    const s = openSocket(
      em,
      edgeSocketUrl(opts.connectUrl, path, opts.token),
      path,
      undefined,
      state,
      (ws) => {
        if (path === '/mic_stream')
          ws.send(JSON.stringify({ op: 'hello', lang: opts.lang ?? 'en' }));
      },
      (d) => onMessage(path, d),
    );
    sockets.set(path, s.ws);
    return s.opened;
  });
  void em.closed.then(() => closeAll(sockets.values()));
  const ready = Promise.all(opened).then(() =>
    em.emit({ type: 'status', state: 'connected', protocol: 1 }),
  );
  ready.catch(() => undefined);
  return {
    protocol: 1,
    emitter: em,
    ready,
    sendAudio(frame) {
      const ws = sockets.get('/mic_stream');
      if (ws?.readyState === WebSocket.OPEN) ws.send(frame);
    },
    sendChat() {
      throw new Error('v1 has no typed turns on the sockets: POST /chat goes through a relay');
    },
    close() {
      state.closing = true;
      em.emit({ type: 'closed', reason: 'client' });
    },
  };
}

export function openV2(opts: SocketOptions): EdgeSockets {
  const em = new EdgeEmitter();
  const state = { closing: false };
  em.emit({ type: 'status', state: 'connecting', protocol: 2 });
  const decode = v2Decoder();
  const onMessage = (data: string | ArrayBuffer) => {
    for (const e of decode(frameOf(data))) em.emit(e);
  };
  const { ws, opened } = openSocket(
    em,
    edgeSocketUrl(opts.connectUrl, '/v2/session', opts.token),
    '/v2/session',
    [V2_SUBPROTOCOL],
    state,
    (s) => s.send(JSON.stringify({ type: 'hello', lang: opts.lang ?? 'en' })),
    onMessage,
  );
  void em.closed.then(() => closeAll([ws]));
  const ready = opened.then(() => em.emit({ type: 'status', state: 'connected', protocol: 2 }));
  ready.catch(() => undefined);
  return {
    protocol: 2,
    emitter: em,
    ready,
    sendAudio(frame) {
      if (ws.readyState !== WebSocket.OPEN) return;
      const tagged = new Uint8Array(frame.byteLength + 1);
      tagged[0] = TAG_MIC;
      tagged.set(frame, 1);
      ws.send(tagged);
    },
    sendChat(text) {
      if (ws.readyState !== WebSocket.OPEN) throw new Error('the /v2/session socket is not open');
      ws.send(JSON.stringify({ type: 'chat', text }));
    },
    close() {
      state.closing = true;
      em.emit({ type: 'closed', reason: 'client' });
    },
  };
}
