/**
 * Mint for a live conversation through the queue (spec 4.5), with the same queue display
 * as `sessions mint`; Ctrl-C while queued cancels the ticket. Also the release that every
 * exit path of `sessions live`, `smoke` and `demo` runs.
 */
import { mintAndWait } from '../../client/mint-queue.js';
import { releaseSession } from '../../contract/operations/sessions.js';
import type { MintReady } from '../../contract/resources/session.js';
import type { AvatarClient } from '../../client/client.js';
import type { CliContext } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { queueStatusLine } from './queue-line.js';

export type Minted = MintReady & { protocol_version?: number };

export async function mintLive(
  cli: CliContext,
  client: AvatarClient,
  body: Record<string, unknown>,
): Promise<Minted> {
  const ctrl = new AbortController();
  const off = cli.onInterrupt(() =>
    ctrl.abort(new CliError('interrupted: queue ticket cancelled', ExitCode.interrupted)),
  );
  const status = queueStatusLine(cli);
  try {
    const res = await mintAndWait(client, body, {
      signal: ctrl.signal,
      onQueued: (q) => status.show(q),
    });
    status.done('seated');
    return res.body as Minted;
  } catch (err) {
    status.done(null);
    if (ctrl.signal.aborted) throw ctrl.signal.reason;
    throw err;
  } finally {
    off();
  }
}

/** Release with the seat token alone (spec 4.5: it is the sole credential when present). */
export async function releaseSeat(client: AvatarClient, minted: Minted): Promise<void> {
  await client.call(releaseSession, {
    params: { sessionId: minted.session_id },
    body: { seat_token: minted.seat_token },
  });
}
