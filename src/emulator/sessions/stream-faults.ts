/**
 * Stream faults on the control plane's side of the internal box API (issue 18 item 6;
 * docs/testing.md "Faults inside live streams"): a box that meets an armed event asks here
 * which faults it is dealt (`POST /_internal/boxes/{id}/sessions/{sid}/faults`); every box
 * hears when the armed events change (`POST /_box/faults`). A box dealt `crash_box` is
 * watched: from the crash on, its `/health` is probed every second of the emulator's clock,
 * and the first probe it does not answer makes it gone (its sessions end `box_gone`). A
 * crashed box of this emulator's own fleet is then replaced, as an orchestrator restarts a
 * box: a new one with the same capabilities registers, and its free seats go to the line.
 */
import { boxFaultClaim } from '../../contract/operations/boxes.js';
import type { TimerHandle } from '../clock.js';
import type { App, EmulatorContext } from '../context.js';
import { ApiError } from '../../server/api-error.js';
import { faultsOf } from '../operator/faults.js';
import { operatorLog } from '../operator/log.js';
import type { implement } from '../http/router.js';
import { sessionRuntime } from './runtime.js';
import { getSessionRow } from './store.js';
import { armFaultsOnBox, boxAnswers } from '../fleet/box-calls.js';
import type { BoxRecord } from '../fleet/fleet.js';
import { addBox, removeBox, runningBoxes } from '../fleet/spawn.js';

/** How often a box dealt a crash is probed, and for how many probes at most. */
export const CRASH_PROBE_MS = 1000;
const CRASH_PROBES = 30;

export function registerStreamFaults(
  app: App,
  ctx: EmulatorContext,
  boxRoute: typeof implement,
): void {
  const rt = sessionRuntime(ctx);
  const faults = faultsOf(ctx);
  faults.armedListeners.push(async (events, version) => {
    await Promise.all(
      rt.fleet.liveBoxes().map(async (box) => {
        const error = await armFaultsOnBox(box, events, version);
        if (error)
          operatorLog(ctx).add('event', {
            event: 'box.arm_failed',
            data: { box: box.id, events, version, error },
          });
      }),
    );
  });

  // Probes and replacements stop with the emulator (a box started after stop would outlive it).
  let stopped = false;
  const probing = new Set<TimerHandle>();
  ctx.onStop(() => {
    stopped = true;
    for (const t of probing) t.cancel();
  });
  const later = (fn: () => Promise<void>, ms: number) => {
    const t = ctx.clock.setTimeout(() => {
      probing.delete(t);
      void fn();
    }, ms);
    probing.add(t);
  };
  const watchCrash = (boxId: string, afterMs: number) => {
    let probes = 0;
    const probe = async () => {
      const box = rt.fleet.get(boxId);
      if (stopped || !box?.live) return;
      const answers = await boxAnswers(box);
      if (stopped) return;
      if (!answers) {
        operatorLog(ctx).add('event', { event: 'box.crashed', data: { box: boxId } });
        rt.boxGone(boxId);
        await replace(box);
      } else if (++probes < CRASH_PROBES) later(probe, CRASH_PROBE_MS);
    };
    later(probe, afterMs + CRASH_PROBE_MS);
  };

  /** A crashed in-process box makes way for a new one of the same capabilities. */
  const replace = async (box: BoxRecord) => {
    if (!runningBoxes(ctx).some((b) => b.id === box.id)) return; // a box of another process
    await removeBox(ctx, box.id);
    const fresh = await addBox(ctx, {
      seats: box.seats,
      protocols: box.protocols,
      customAvatars: box.customAvatars,
      verified: box.verified,
      ...(box.maxCapSeconds !== null ? { maxCapSeconds: box.maxCapSeconds } : {}),
    }).catch((e: Error) => {
      operatorLog(ctx).add('event', {
        event: 'box.replace_failed',
        data: { box: box.id, error: e.message },
      });
      return null;
    });
    if (fresh && stopped) {
      await removeBox(ctx, fresh.id);
      return;
    }
    if (fresh)
      operatorLog(ctx).add('event', { event: 'box.replaced', data: { box: box.id, by: fresh.id } });
  };

  boxRoute(app, ctx, boxFaultClaim, ({ params, body: { event } }) => {
    const { boxId, sessionId } = params;
    const row = getSessionRow(rt.st, sessionId);
    if (!row || row.box_id !== boxId)
      throw new ApiError(404, 'not_found', { message: 'no such session on this box' });
    const dealt = faults.deal(event, sessionId, boxId);
    for (const f of dealt) if (f.stream === 'crash_box') watchCrash(boxId, f.after_ms ?? 0);
    return { faults: dealt };
  });
}
