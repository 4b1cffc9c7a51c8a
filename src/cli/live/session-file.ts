/**
 * A saved conversation (issue 18 item 7): `sessions live --save-session FILE` writes what
 * the session took (the mint body, every mic frame sent on the uplink, typed turns with
 * their times) and gave (the events of the live log, the turns); `sessions replay FILE`
 * plays it back and compares. Times are seconds since the connect began (the live log's
 * `t`). docs/testing.md "Record and replay".
 */
import type { Stamped } from './live-log.js';

export const SESSION_FILE_FORMAT = 'avatar-session/1';

export interface SessionFile {
  format: typeof SESSION_FILE_FORMAT;
  /** The mint body as sent (seat and queue fields are per mint: not kept). */
  mint: Record<string, unknown>;
  protocol: 1 | 2;
  lang: string;
  /** The uplink as sent: 16 kHz mono PCM16, one 100 ms frame after another from `start_t`. */
  mic: { sample_rate: 16000; start_t: number; frames: number; pcm16_base64: string } | null;
  /** Typed turns, at the time each was sent. */
  typed: { t: number; text: string }[];
  /** The live log's events, media records left out (their count follows the machine's speed). */
  events: Stamped[];
  /** What is compared on replay (see `transcriptOf`). */
  transcript: TranscriptEntry[];
}

/**
 * The part of a conversation deterministic local models reproduce exactly: what was said
 * and typed, each reply, tool activity. Times, media byte counts and how the session ended
 * (a recording ended with Ctrl-C replays to its last turn) are not compared.
 */
export type TranscriptEntry =
  | { event: 'turn'; text: string; reply: string; greeting?: true; avatar_line?: true }
  | { event: 'said'; text: string }
  | { event: 'agent_event'; kind: string; tool?: string };

export function transcriptOf(events: readonly Stamped[]): TranscriptEntry[] {
  const out: TranscriptEntry[] = [];
  for (const e of events) {
    if (e.event === 'turn')
      out.push({
        event: 'turn',
        text: e.text,
        reply: e.reply,
        ...(e.greeting ? { greeting: true as const } : {}),
        ...(e.avatar_line ? { avatar_line: true as const } : {}),
      });
    else if (e.event === 'said') out.push({ event: 'said', text: e.text });
    else if (e.event === 'agent_event')
      out.push({ event: 'agent_event', kind: e.kind, ...(e.tool ? { tool: e.tool } : {}) });
  }
  return out;
}

/** Events worth keeping in the file (media records are many and timing-dependent). */
export const keptEvent = (e: Stamped) => e.event !== 'media';

/** Collects a session as it runs; `file()` gives the record to write. */
export class SessionRecorder {
  private frames: Buffer[] = [];
  private micStart: number | null = null;
  private readonly typed: { t: number; text: string }[] = [];
  private readonly events: Stamped[] = [];

  constructor(
    private readonly mint: Record<string, unknown>,
    private readonly protocol: 1 | 2,
    private readonly lang: string,
  ) {}

  /** Every frame the pump sends, at `t`. */
  micFrame(frame: Uint8Array, t: number): void {
    this.micStart ??= t;
    this.frames.push(Buffer.from(frame));
  }

  event(e: Stamped): void {
    if (!keptEvent(e)) return;
    this.events.push(e);
    if (e.event === 'said') this.typed.push({ t: e.t, text: e.text });
  }

  file(): SessionFile {
    // A frame of nothing but zeroes at the end adds nothing to replay: trim the trailing silence.
    let n = this.frames.length;
    while (n > 0 && this.frames[n - 1]!.every((b) => b === 0)) n--;
    const { queue_ticket: _t, ...mint } = this.mint;
    return {
      format: SESSION_FILE_FORMAT,
      mint,
      protocol: this.protocol,
      lang: this.lang,
      mic:
        this.micStart === null || n === 0
          ? null
          : {
              sample_rate: 16000,
              start_t: this.micStart,
              frames: n,
              pcm16_base64: Buffer.concat(this.frames.slice(0, n)).toString('base64'),
            },
      typed: this.typed,
      events: this.events,
      transcript: transcriptOf(this.events),
    };
  }
}

/** Read and check a session file; throws an Error saying what is wrong with it. */
export function parseSessionFile(text: string, name: string): SessionFile {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new Error(`${name}: not JSON (${(e as Error).message})`);
  }
  const f = v as Partial<SessionFile> | null;
  if (!f || typeof f !== 'object' || f.format !== SESSION_FILE_FORMAT)
    throw new Error(`${name}: not a saved session (format must be ${SESSION_FILE_FORMAT})`);
  if (!f.mint || typeof f.mint !== 'object')
    throw new Error(`${name}: mint: the mint body is missing`);
  if (!Array.isArray(f.typed) || !Array.isArray(f.events) || !Array.isArray(f.transcript))
    throw new Error(`${name}: typed, events and transcript must be arrays`);
  if (f.protocol !== 1 && f.protocol !== 2) throw new Error(`${name}: protocol must be 1 or 2`);
  return f as SessionFile;
}

export interface Difference {
  /** Index in the transcript. */
  at: number;
  recorded: TranscriptEntry | null;
  replayed: TranscriptEntry | null;
}

/** Where two transcripts differ, entry by entry. */
export function diffTranscripts(
  recorded: readonly TranscriptEntry[],
  replayed: readonly TranscriptEntry[],
): Difference[] {
  const out: Difference[] = [];
  for (let i = 0; i < Math.max(recorded.length, replayed.length); i++) {
    const a = recorded[i] ?? null;
    const b = replayed[i] ?? null;
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ at: i, recorded: a, replayed: b });
  }
  return out;
}
