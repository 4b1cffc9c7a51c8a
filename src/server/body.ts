import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { ApiError } from './api-error.js';

/** Past this many bytes we stop draining an oversized body and let the socket close. */
const DRAIN_CAP = 256 * 1024 * 1024;

/**
 * Read the request body up to `maxBytes`. An oversized body is drained (read and
 * discarded) before the 413 is sent, so the client gets the spec's envelope instead of a
 * reset connection mid-upload.
 */
/** The 413 of a body over `maxBytes`. */
export const tooLarge = (maxBytes: number) =>
  new ApiError(413, 'payload_too_large', { message: `request body over ${maxBytes} bytes` });

export async function readBodyLimited(c: Context, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(c.req.header('content-length') ?? NaN);
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (
    incoming &&
    typeof incoming.on === 'function' &&
    incoming.readableFlowing === null &&
    !incoming.readableDidRead
  ) {
    return readIncoming(incoming, maxBytes, Number.isFinite(declared) && declared > maxBytes);
  }
  const stream = c.req.raw.body;
  if (!stream) return new Uint8Array();
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let over = Number.isFinite(declared) && declared > maxBytes;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      // The client went away mid-body: nothing to store and nobody to answer; not our failure.
      throw new ApiError(400, 'invalid_request', {
        message: 'request body cut off before its end',
      });
    }
    const { done, value } = chunk;
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) over = true;
    if (over) {
      chunks.length = 0;
      if (total > DRAIN_CAP) {
        await reader.cancel();
        break;
      }
      continue;
    }
    chunks.push(value);
  }
  if (over) throw tooLarge(maxBytes);
  const out = new Uint8Array(total);
  let off = 0;
  for (const ch of chunks) {
    out.set(ch, off);
    off += ch.byteLength;
  }
  return out;
}

/**
 * The same read straight from Node's request stream, when the app runs on
 * @hono/node-server and nothing has touched the body yet: building the web Request and its
 * ReadableStream was ~14% of a mint (issue 7 item 13). Same limits, same answers.
 */
function readIncoming(
  incoming: IncomingMessage,
  maxBytes: number,
  declaredOver: boolean,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let over = declaredOver;
    let settled = false;
    const finish = (err: ApiError | null) => {
      if (settled) return;
      settled = true;
      incoming.off('data', onData).off('end', onEnd).off('error', onCut).off('close', onClose);
      if (err) return reject(err);
      const out = new Uint8Array(total);
      let off = 0;
      for (const ch of chunks) {
        out.set(ch, off);
        off += ch.byteLength;
      }
      resolve(out);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > maxBytes) over = true;
      if (!over) return void chunks.push(chunk);
      chunks.length = 0;
      if (total > DRAIN_CAP) {
        incoming.destroy();
        finish(tooLarge(maxBytes));
      }
    };
    const onEnd = () => finish(over ? tooLarge(maxBytes) : null);
    // The client went away mid-body: nothing to store and nobody to answer; not our failure.
    const onCut = () =>
      finish(
        new ApiError(400, 'invalid_request', { message: 'request body cut off before its end' }),
      );
    const onClose = () => {
      if (!incoming.complete) onCut();
    };
    incoming.on('data', onData).on('end', onEnd).on('error', onCut).on('close', onClose);
  });
}

/**
 * The one JSON body reader: the body up to `maxBytes` (readBodyLimited), decoded as strict
 * UTF-8 (RFC 8259; a lenient decode would store U+FFFD in place of the bytes sent) and
 * parsed. An empty body is `undefined`. `fail` builds the caller's 400 `invalid_json` in its
 * family's envelope (the control plane's ApiError, the inference family's own).
 */
export async function readJsonBody(
  c: Context,
  maxBytes: number,
  fail: (message: string) => Error,
): Promise<unknown> {
  return parseJsonBytes(await readBodyLimited(c, maxBytes), fail);
}

/** UTF-8 JSON bytes as a value; undefined for an empty body; `fail` names what is wrong. */
export function parseJsonBytes(bytes: Uint8Array, fail: (message: string) => Error): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw fail('request body is not UTF-8 JSON');
  }
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw fail('request body is not valid JSON');
  }
}
