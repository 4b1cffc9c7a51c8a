/**
 * The client's queue loop (spec 4.5): mint; on 202 wait `retry_after` seconds and re-POST
 * the same body with `queue_ticket` added, at once when the ticket is claimable, until a
 * 201 or an error. On abort the ticket is cancelled (DELETE, always 204).
 */
import type { MintQueued, MintReady } from '../contract/resources/session.js';
import { mintSession, queueCancel } from '../contract/operations/sessions.js';
import { ApiResponseError, type AvatarClient } from './client.js';

export interface MintWaitOptions {
  /** Called with every 202 (position, eta, state). */
  onQueued?: (q: MintQueued) => void;
  /** Abort: cancel the ticket and reject with the signal's reason. */
  signal?: AbortSignal;
  /** Return the first 202 instead of waiting (`--no-wait`). */
  noWait?: boolean;
  /** Injected for tests; defaults to a real timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * A timer that an abort cuts short. The abort listener is removed when the timer fires: a
 * long wait sleeps once per poll on the same signal, and listeners left behind pile up
 * (MaxListenersExceededWarning after about 11 polls, issue 7 item 7).
 */
export const realSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export async function mintAndWait(
  client: AvatarClient,
  body: Record<string, unknown>,
  opts: MintWaitOptions = {},
): Promise<{ status: 201; body: MintReady } | { status: 202; body: MintQueued }> {
  const sleep = opts.sleep ?? realSleep;
  let ticket: string | undefined;
  try {
    for (;;) {
      opts.signal?.throwIfAborted();
      const res = await client.send(mintSession, {
        body: ticket ? { ...body, queue_ticket: ticket } : body,
        signal: opts.signal,
      });
      if (res.status >= 400) throw new ApiResponseError(res.status, res.body, res.headers);
      if (res.status === 201) return { status: 201, body: res.body as MintReady };
      const q = res.body as MintQueued;
      ticket = q.queue_ticket;
      opts.onQueued?.(q);
      if (opts.noWait) return { status: 202, body: q };
      // spec 4.5: claimable -> re-POST at once; else honour retry_after.
      if (q.state !== 'claimable') await sleep(Math.max(0, q.retry_after) * 1000, opts.signal);
    }
  } catch (err) {
    if (ticket && opts.signal?.aborted) {
      // A ticket minted for an explicit workspace (key not workspace-bound) lives in that
      // workspace: the cancel must name it too, or it reaches nothing (spec 4.5).
      const ws =
        typeof body.workspace_id === 'string' ? { workspace_id: body.workspace_id } : undefined;
      await client
        .send(queueCancel, { params: { ticket }, ...(ws ? { query: ws } : {}) })
        .catch(() => undefined);
    }
    throw err;
  }
}
