/** Pieces the turn-loop tests share: a brain the test holds, and a minimal frozen session. */
import { EventEmitter } from 'node:events';
import type { Channel, Stream } from '../../src/edge/session/channel.js';
import type { LiveSession, LoggedTurn } from '../../src/edge/session/live-session.js';
import type { ReplyHandle, SessionStream } from '../../src/edge/session/parts.js';
import type { SessionSnapshot } from '../../src/edge/session/snapshot.js';
import { TurnQueue, type TurnQueueDeps } from '../../src/edge/session/turn-queue.js';
import { LocalBrain } from '../../src/models/brain/local.js';
import type { Brain, BrainRequest, Speech, Voice } from '../../src/models/index.js';

/** The local brain, but each reply waits until the test opens its gate (or the turn is aborted: then it throws, as an LLM client does). */
export class GatedBrain implements Brain {
  readonly name = 'gated';
  private readonly local = new LocalBrain();
  /** The user text of every request, in order ('' for the greeting). */
  readonly asked: string[] = [];
  private readonly gates: (() => void)[] = [];

  open(): void {
    for (const g of this.gates.splice(0)) g();
  }

  reply(req: BrainRequest) {
    const last = req.messages.at(-1);
    this.asked.push(last?.role === 'user' ? last.content : '');
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    this.gates.push(open);
    const inner = this.local.reply(req);
    const signal = req.signal;
    async function* deltas() {
      await new Promise<void>((res) => {
        void gate.then(res);
        signal?.addEventListener('abort', () => res(), { once: true });
      });
      signal?.throwIfAborted();
      yield* inner.deltas;
    }
    return { deltas: deltas(), usage: inner.usage };
  }
}

/** A brain-only session of the stock persona `ava`, greeting off, as a mint would freeze it. */
export function testSnapshot(id: string, config: Record<string, unknown> = {}): SessionSnapshot {
  return {
    id,
    avatar: { persona: 'ava', language: 'en' },
    history: [],
    config: { greeting_enabled: false, greeting_hold_ms: 0, render: false, ...config },
    responseLanguage: null,
    capSeconds: 300,
    systemPrompt: null,
    backstory: null,
    memoryBlock: null,
  } as unknown as SessionSnapshot;
}

/** A session media stream that only speaks, the way `speak` says (no media is made). */
export function fakeStream(speak: (speech: Speech) => ReplyHandle): SessionStream {
  return Object.assign(new EventEmitter(), {
    mime: 'video/mp4',
    initSegment: Buffer.alloc(0),
    state: 'listening',
    clockMs: 0,
    bufferedMs: 0,
    ready: async () => {},
    close: () => {},
    speak,
  }) as unknown as SessionStream;
}

/** A control + events channel that keeps every JSON message sent to it. */
export function recordingChannel(): Channel & { sent: any[] } {
  const sent: any[] = [];
  return {
    sent,
    streams: new Set<Stream>(['control', 'events']),
    sendJson: (m: object) => sent.push(m),
    sendMime: () => undefined,
    sendMedia: () => undefined,
    close: () => undefined,
  };
}

/** A voice that times each word at `msPerWord` (speech of 280 ms, then a gap) and makes silent samples. */
export function wordTimedVoice(msPerWord = 300): Voice {
  return {
    name: 'fake',
    voices: [],
    synthesize: async (text) => {
      const words = text.split(/\s+/).map((w, i) => ({
        text: w,
        startMs: i * msPerWord,
        endMs: i * msPerWord + msPerWord - 20,
      }));
      const durationMs = words.length * msPerWord;
      return { sampleRate: 16000, samples: new Int16Array(16 * durationMs), durationMs, words };
    },
  };
}

/**
 * A turn loop on `live`, built as the box builds one (edge-session.ts) but with no voice
 * shape or stream faults, keeping every turn it stores (a copy, as the control plane
 * would) and logging nowhere.
 */
export function turnLoopOn(
  live: LiveSession,
  d: Pick<TurnQueueDeps, 'parts' | 'clock'> & { stream?: TurnQueueDeps['stream'] },
): { loop: TurnQueue; stored: LoggedTurn[] } {
  const stored: LoggedTurn[] = [];
  const loop = new TurnQueue({
    session: live,
    parts: d.parts,
    clock: d.clock,
    stream: d.stream ?? null,
    store: (t) => stored.push({ ...t }),
    log: () => undefined,
  });
  return { loop, stored };
}
