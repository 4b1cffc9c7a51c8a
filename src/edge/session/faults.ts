/**
 * Where a session meets stream faults (docs/testing.md "Faults inside live streams"): at
 * an event (the media socket opens, a `turn` goes out, an utterance is recognised, the
 * brain replies) it asks which faults it is dealt. The box provides this
 * (box/stream-faults.ts); a session without it meets none.
 */
import type { StreamFaultEvent } from '../../contract/operations/boxes.js';
import type { DealtStreamFault } from '../../contract/resources/operator.js';

export type { DealtStreamFault, StreamFaultEvent };

export interface SessionFaults {
  /** Whether any fault waits at this event (when not, nothing is asked and nothing waits). */
  armed(event: StreamFaultEvent): boolean;
  deal(event: StreamFaultEvent): Promise<DealtStreamFault[]>;
  /** The box crashes now (a `crash_box` fault): every socket drops, nothing more is served. */
  crash(): void;
}

/** The one fault of this kind among those dealt at an event, if any. */
export async function dealtOne(
  faults: SessionFaults | null | undefined,
  event: StreamFaultEvent,
  kind: DealtStreamFault['stream'],
): Promise<DealtStreamFault | null> {
  if (!faults?.armed(event)) return null;
  return (await faults.deal(event)).find((f) => f.stream === kind) ?? null;
}
