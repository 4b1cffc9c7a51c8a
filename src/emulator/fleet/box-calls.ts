/**
 * Calls from the control plane to a box (ours, the other half of the internal box API):
 * end a session the control plane ended (release, reaper, cap: the box closes its
 * sockets), read a session's own log (spec 4.5 transcript `source: live`), and tell it
 * which stream-fault events are armed. Each call presents the secret the box gave at
 * registration; the paths are the contract's (contract/operations/boxes.ts).
 */
import { request } from 'undici';
import { edgeFaults, edgeHealth, type StreamFaultEvent } from '../../contract/operations/boxes.js';
import { z } from 'zod';
import type { BoxRecord } from './fleet.js';

const TIMEOUT_MS = 2000;

async function call(
  box: BoxRecord,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await request(`${box.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${box.callbackSecret ?? ''}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/**
 * The control plane ended a live session: the box ends its media with a close reason.
 * Settles once the box has ended it (its captures are final) or cannot be reached.
 */
export async function endOnBox(box: BoxRecord, sessionId: string, reason: string): Promise<void> {
  if (!box.callbackSecret || !box.live) return;
  // The box tells only the cap apart (its close code); every other end is `released` to it
  // (idle, script, ...): the box's query takes cap|released and refuses anything else.
  const told = reason === 'cap' ? 'cap' : 'released';
  await call(
    box,
    'POST',
    `/_box/sessions/${encodeURIComponent(sessionId)}/end?reason=${told}`,
  ).catch(() => undefined);
}

export interface BoxLogTurn {
  seq: number;
  user_text: string;
  reply_text: string;
}

/** What a box's log route answers (unknown keys dropped). */
const BoxLog = z.object({
  turns: z.array(
    z.object({ seq: z.number().int().min(0), user_text: z.string(), reply_text: z.string() }),
  ),
});

/** The box's own log of a session, or null when the box cannot say (gone, forgot, unreachable). */
export async function boxLog(
  box: BoxRecord | undefined,
  sessionId: string,
): Promise<BoxLogTurn[] | null> {
  if (!box?.callbackSecret || !box.live) return null;
  try {
    const r = await call(box, 'GET', `/_box/sessions/${encodeURIComponent(sessionId)}/log`);
    if (r.status !== 200) return null;
    // A body that is not a log (another box version, a proxy's page) is a log it cannot give.
    const log = BoxLog.safeParse(r.body);
    return log.success ? log.data.turns : null;
  } catch {
    return null;
  }
}

/**
 * Tell a box which stream-fault events are armed (it asks the control plane only at those),
 * bounded by the call's timeout: null when it heard, else why not (the caller logs it).
 */
export async function armFaultsOnBox(
  box: BoxRecord,
  events: StreamFaultEvent[],
  version: number,
): Promise<string | null> {
  if (!box.callbackSecret || !box.live) return null;
  try {
    const r = await call(box, 'POST', edgeFaults.path, { events, version });
    return r.status === 200 ? null : `answered ${r.status}`;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * Does the box still answer? A refused or failed `/health` is a box gone (a crashed box,
 * docs/testing.md "Faults inside live streams"); an answer of any status is a box alive.
 */
export async function boxAnswers(box: BoxRecord): Promise<boolean> {
  try {
    await call(box, 'GET', edgeHealth.path);
    return true;
  } catch {
    return false;
  }
}
