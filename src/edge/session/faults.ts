/**
 * Where a session meets stream faults (docs/testing.md "Faults inside live streams"): at
 * an event (the media socket opens, a `turn` goes out, an utterance is recognised, the
 * brain replies) it asks which faults it is dealt. The box provides this
 * (box/stream-faults.ts); a session without it meets none.
 */
import type { StreamFaultEvent } from '../../contract/operations/boxes.js';
import type { DealtStreamFault } from '../../contract/resources/operator.js';
import type { Clock } from '../../contract/clock.js';
import type { Brain, Recognizer } from '../../models/index.js';
import type { Recognition, RecognitionStream } from '../../models/recognizer.js';

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

/**
 * A brain that fails as an upstream that is down when a `brain_fail` fault is dealt at the
 * reply (the greeting included). Asked only when a fault may wait: an unarmed box gets the
 * brain's own reply at once. The brain is not asked at all for a reply that fails.
 */
export function faultyBrain(brain: Brain, faults: SessionFaults | null): Brain {
  if (!faults) return brain;
  const reply: Brain['reply'] = (req) => {
    if (!faults.armed('reply')) return brain.reply(req);
    const made = dealtOne(faults, 'reply', 'brain_fail').then((f) => {
      if (f)
        throw new Error(`the brain failed (fault ${f.id} injected by the emulator's operator)`);
      return brain.reply(req);
    });
    return {
      deltas: (async function* () {
        yield* (await made).deltas;
      })(),
      usage: made.then(
        (r) => r.usage,
        () => ({ promptTokens: 0, completionTokens: 0 }),
      ),
    };
  };
  return {
    name: brain.name,
    reply,
    ...(brain.verdict ? { verdict: brain.verdict.bind(brain) } : {}),
  };
}

/**
 * A recogniser that fails as one that is down when a `recognizer_fail` fault is dealt at an
 * utterance's end: the utterance is not recognised (its text says why) and its stream is
 * dropped (a new one is opened at the next utterance). One deal per utterance, batch or
 * streamed (a stream that falls behind is finished in batch without asking again).
 */
export function faultyRecognizer(recognizer: Recognizer, faults: SessionFaults | null): Recognizer {
  if (!faults) return recognizer;
  let askedForThis = false;
  const failure = async (): Promise<Recognition | null> => {
    if (!faults.armed('recognize')) return null;
    const f = await dealtOne(faults, 'recognize', 'recognizer_fail');
    return f
      ? {
          text: `[speech not recognised: the recogniser failed (fault ${f.id} injected by the emulator's operator)]`,
          recognised: false,
        }
      : null;
  };
  const openStream = recognizer.stream?.bind(recognizer);
  const prepare = recognizer.prepare?.bind(recognizer);
  return {
    name: recognizer.name,
    ...(prepare ? { prepare } : {}),
    get available() {
      return recognizer.available;
    },
    async transcribe(samples, opts) {
      const asked = askedForThis;
      askedForThis = false;
      return (!asked && (await failure())) || recognizer.transcribe(samples, opts);
    },
    ...(openStream
      ? {
          stream(opts) {
            let inner = openStream(opts);
            if (!inner) return null;
            const s: RecognitionStream = {
              onPartial: null,
              begin: (samples) => {
                inner ??= openStream(opts);
                if (inner) inner.onPartial = (t) => s.onPartial?.(t);
                inner?.begin(samples);
              },
              push: (samples, speech) => inner?.push(samples, speech),
              end: async () => {
                const failed = await failure();
                if (failed) {
                  inner?.close();
                  inner = null;
                  return failed;
                }
                try {
                  if (!inner) throw new Error('the recogniser stream could not be reopened');
                  return await inner.end();
                } catch (e) {
                  // Finished in batch next (recognition.ts): this utterance was asked already.
                  askedForThis = true;
                  throw e;
                }
              },
              close: () => inner?.close(),
            };
            return s;
          },
        }
      : {}),
  };
}

/**
 * A channel for `turn` messages that sends one late when a `delay_turn` fault is dealt: by
 * the fault's ms from when it was due, however long the control plane took to answer. An
 * unarmed box sends at once.
 */
export function delayedTurns<M>(
  send: (msg: M) => void,
  faults: SessionFaults | null,
  clock: Clock,
): (msg: M) => void {
  if (!faults) return send;
  return (msg) => {
    if (!faults.armed('turn')) return send(msg);
    const asked = clock.now();
    void dealtOne(faults, 'turn', 'delay_turn').then((f) => {
      if (f?.ms) clock.setTimeout(() => send(msg), f.ms - (clock.now() - asked));
      else send(msg);
    });
  };
}
