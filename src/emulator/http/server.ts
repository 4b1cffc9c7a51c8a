import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ServerType } from '@hono/node-server';
import { ErrorCode } from '../../contract/errors.js';

/*
 * The control plane's socket: requests counted for a graceful stop, and requests Node's
 * parser refuses answered in the spec's envelope.
 */

/** Requests being answered on one server, and what to do when the count drops to zero. */
export interface RequestCount {
  count: number;
  idle: (() => void) | null;
}

/** Count the server's requests in flight (for `closeServer`). */
export function trackRequests(server: ServerType): RequestCount {
  const state: RequestCount = { count: 0, idle: null };
  (server as Server).on('request', (_req, res) => {
    state.count++;
    res.once('close', () => {
      if (--state.count === 0) state.idle?.();
    });
  });
  return state;
}

/**
 * Stop accepting connections, let requests in flight finish (at most `graceMs`), then
 * close every connection (idle keep-alive sockets included).
 */
export function closeServer(
  server: ServerType,
  state: RequestCount,
  graceMs: number,
): Promise<void> {
  const s = server as Server;
  return new Promise<void>((done) => {
    s.close(() => done());
    s.closeIdleConnections();
    if (state.count === 0) {
      s.closeAllConnections();
      return;
    }
    const finish = () => {
      clearTimeout(timer);
      state.idle = null;
      s.closeAllConnections();
    };
    const timer = setTimeout(finish, graceMs);
    timer.unref();
    state.idle = finish;
  });
}

/**
 * Requests Node's parser refuses before any route runs (headers over the limit, a garbled
 * request line) still get the spec's envelope, then the connection closes.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, reason, body] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'Request Header Fields Too Large',
          { error: ErrorCode.headersTooLarge, message: 'request headers over the size limit' },
        ]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [
            408,
            'Request Timeout',
            { error: ErrorCode.requestTimeout, message: 'the request was not received in time' },
          ]
        : [
            400,
            'Bad Request',
            { error: ErrorCode.invalidRequest, message: 'malformed HTTP request' },
          ];
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
