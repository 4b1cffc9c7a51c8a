/**
 * Stream faults on a media socket (/mse, /v2/session; docs/testing.md "Faults inside live
 * streams"). When the socket opens, the session asks which faults it is dealt; each is
 * timed from then on the box's clock (`after_ms`):
 * - `drop_media`: the connection is dropped without a close frame, as a network or edge
 *   failure drops it: the client sees 1006 (docs/fidelity.md);
 * - `stall_mse`: no media goes out for `ms`; then what was held goes out in order, so the
 *   timeline goes on where it stopped (the player stalls, then catches up);
 * - `truncate_fragment`: the next fragment is cut inside its `mdat` (media/fmp4.ts cutFragment);
 * - `crash_box`: the whole box crashes (box.ts).
 */
import type { WebSocket } from 'ws';
import { cutFragment } from '../../media/fmp4.js';
import type { TimerHandle } from '../../contract/clock.js';
import type { Channel } from '../session/channel.js';
import type { EdgeSession } from '../session/edge-session.js';

export function withMediaFaults(ch: Channel, ws: WebSocket, s: EdgeSession): Channel {
  const faults = s.faults;
  if (!faults?.armed('media_open')) return ch;
  let held: Buffer[] | null = null;
  let cutNext = false;
  const timers: TimerHandle[] = [];
  // Timed from the open, however long the control plane took to answer.
  const opened = s.clock.now();
  const due = (ms: number | undefined, from = opened) =>
    Math.max(0, (ms ?? 0) - (s.clock.now() - from));
  const at = (ms: number | undefined, fn: () => void, from = opened) => {
    timers.push(s.clock.setTimeout(fn, due(ms, from)));
  };
  ws.on('close', () => {
    for (const t of timers) t.cancel();
  });
  void faults.deal('media_open').then((dealt) => {
    for (const f of dealt) {
      if (f.stream === 'drop_media') at(f.after_ms, () => ws.terminate());
      // The crash is the box's: it comes even if this socket closed first.
      else if (f.stream === 'crash_box') s.clock.setTimeout(() => faults.crash(), due(f.after_ms));
      else if (f.stream === 'truncate_fragment') at(f.after_ms, () => (cutNext = true));
      else if (f.stream === 'stall_mse')
        at(f.after_ms, () => {
          held ??= [];
          at(
            f.ms,
            () => {
              const out = held ?? [];
              held = null;
              for (const b of out) ch.sendMedia(b);
            },
            s.clock.now(),
          );
        });
    }
  });
  return {
    ...ch,
    sendMedia(buf) {
      if (held) return void held.push(buf);
      if (cutNext) {
        cutNext = false;
        return ch.sendMedia(cutFragment(buf));
      }
      ch.sendMedia(buf);
    },
  };
}
