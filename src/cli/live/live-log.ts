import type { BrainPayload, EdgeEvent } from '../../client/edge-events.js';
import { wrapText } from '../wrap.js';

/** The edge's event of one type (the contract's message, as the decoder reads it). */
type EdgeOf<T extends EdgeEvent['type']> = Extract<EdgeEvent, { type: T }>;

/**
 * What `sessions live` reports, one record per event: NDJSON with `--json`, one line per
 * event without a TTY (the ink view shows the same things on a terminal). `t` is seconds
 * since the connect began.
 */
export type LiveLogEvent =
  | {
      event: 'minted';
      session_id: string;
      cap_seconds: number;
      protocol: 1 | 2;
      connect_url: string;
    }
  | { event: 'connected'; connect_ms: number }
  | ({ event: 'media_init' } & Omit<EdgeOf<'media_init'>, 'type'>)
  /** `ms_since_connect`: since the connect began (media can arrive before every socket is open). */
  | { event: 'first_media'; bytes: number; ms_since_connect: number }
  | { event: 'media'; bytes: number; segments: number }
  | ({ event: 'partial' } & Omit<EdgeOf<'partial'>, 'type'>)
  /**
   * `greeting: true`: the avatar's opening line (the edge marks it). `avatar_line: true`: a
   * line the avatar began itself (no user text, not the greeting): a tool's follow-up, filler
   * or apology; `tool_line` names the call it belongs to when one was due (docs/live.md).
   * `brain`: the edge's payload in a brain-only session (`name`, `reply`, `usage`; docs/edge.md).
   */
  | (Omit<EdgeOf<'turn'>, 'type' | 'greeting'> & {
      event: 'turn';
      seq: number;
      greeting?: boolean;
      avatar_line?: boolean;
      tool_line?: { kind: 'follow_up' | 'filler'; tool: string; call_id: string };
    })
  /** `greeting: true` / `avatar_line: true`: the media of the opening line / of a line the avatar began, not a reply to the user. */
  | {
      event: 'reply_media';
      seq: number;
      bytes: number;
      segments: number;
      spoken: boolean;
      greeting?: boolean;
      avatar_line?: boolean;
    }
  | ({ event: 'agent_event' } & Omit<EdgeOf<'agent_event'>, 'type'>)
  | { event: 'said'; text: string }
  /** The mic is gated (zeroed frames) while the avatar is heard through the speakers, or open again. */
  | { event: 'mic_gate'; gated: boolean }
  | { event: 'mic'; source: string; duration_ms?: number }
  | { event: 'notice'; message: string }
  | { event: 'error'; error: string }
  | { event: 'recorded'; path: string; bytes: number; remuxed: boolean; error?: string }
  | {
      event: 'ended';
      reason: LiveEndReason;
      detail?: string;
      duration_s: number;
      turns: number;
      media_bytes: number;
      released: boolean;
      release_error?: string;
    };

/**
 * Why `sessions live` ended, as the CLI reports it (printed, and in the `ended` record);
 * not the edge's `EndReason` (src/contract/edge/messages.ts), which reaches it as a close:
 * - `interrupted`: Ctrl-C;  - `turns_done`: `--turns N` reached and the last reply spoken;
 * - `cap_reached`: the session clock reached `cap_seconds`;
 * - `edge_closed`: the edge ended the session (released elsewhere, box stopping);
 * - `socket_lost`: a socket dropped without a close;  - `refused`: the edge refused the connect;
 * - `error`: something failed on this side.
 */
export type LiveEndReason =
  | 'interrupted'
  | 'turns_done'
  | 'cap_reached'
  | 'edge_closed'
  | 'socket_lost'
  | 'refused'
  | 'error';

export type Stamped = LiveLogEvent & { t: number };

export function ndjsonLine(e: Stamped): string {
  return JSON.stringify(e);
}

const kb = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${(n / 1024).toFixed(1)} KB`;

/** Where `--record` put the file: the line view's line and the ink view's last frame. */
export const recordedText = (r: {
  path: string;
  bytes: number;
  remuxed: boolean;
  error?: string;
}): string =>
  `recorded ${r.path} (${kb(r.bytes)}${r.remuxed ? '' : `, kept as received${r.error ? `: ${r.error}` : ''}`})`;

/** The human line for an event (no TTY); undefined for events too chatty to print. */
export function textLine(e: Stamped): string | undefined {
  const t = `[${e.t.toFixed(1).padStart(5)}s]`;
  switch (e.event) {
    case 'minted':
      return `${t} minted session ${e.session_id} (cap ${e.cap_seconds} s, protocol ${e.protocol})`;
    case 'connected':
      return `${t} connected to the edge in ${e.connect_ms} ms`;
    case 'media_init':
      return `${t} media: ${e.mime}`;
    case 'first_media':
      return `${t} first media fragment (${e.bytes} bytes, ${e.ms_since_connect} ms after the connect began)`;
    case 'media':
      return undefined;
    case 'partial':
      return `${t} you (partial): ${e.text}`;
    case 'turn': {
      const who = e.tool_line
        ? `avatar (${e.tool_line.tool} ${e.tool_line.kind.replace('_', '-')})`
        : 'avatar';
      const said =
        e.greeting || e.avatar_line
          ? `${t} ${who}: ${e.reply}`
          : `${t} you: ${e.text}\n${t} avatar: ${e.reply}`;
      return e.brain ? `${said}\n${t} brain: ${brainLine(e.brain)}` : said;
    }
    case 'reply_media':
      return `${t} ${e.greeting ? 'greeting' : e.avatar_line ? 'avatar line' : 'reply'} media: ${kb(e.bytes)} in ${e.segments} fragments${e.spoken ? '' : ' (no audible speech detected)'}`;
    case 'agent_event':
      return `${t} tool ${e.tool ?? '?'}: ${e.kind}${e.caption ? ` (${e.caption})` : ''}${e.url ? ` ${e.url}` : ''}`;
    case 'mic_gate':
      return `${t} mic ${e.gated ? 'gated while the avatar speaks' : 'open'}`;
    case 'said':
      return `${t} sent (typed): ${e.text}`;
    case 'mic':
      return `${t} mic: ${e.source}${e.duration_ms !== undefined ? ` (${(e.duration_ms / 1000).toFixed(1)} s)` : ''}`;
    case 'notice':
      return `${t} note: ${e.message}`;
    case 'error':
      return `${t} error: ${e.error}`;
    case 'recorded':
      return `${t} ${recordedText(e)}`;
    case 'ended':
      // `turns_done`'s detail ("1 turn") is the turn count said just after.
      return `${t} ended: ${endSentence(e.reason, e.reason === 'turns_done' && /^\d+ turns?$/.test(e.detail ?? '') ? undefined : e.detail)} after ${e.duration_s.toFixed(1)} s, ${e.turns} turn${e.turns === 1 ? '' : 's'}; ${
        e.released ? 'seat released' : `seat NOT released (${e.release_error ?? 'unknown'})`
      }`;
  }
}

/** A brain-only turn's payload in words: `local, 41 prompt + 12 completion tokens`. */
export function brainLine(b: BrainPayload): string {
  return b.usage
    ? `${b.name}, ${b.usage.prompt_tokens} prompt + ${b.usage.completion_tokens} completion tokens`
    : b.name;
}

export function endSentence(reason: LiveEndReason, detail?: string): string {
  const base = {
    interrupted: 'interrupted (Ctrl-C)',
    turns_done: 'the requested turns are done',
    cap_reached: 'the session cap was reached',
    edge_closed: 'the edge ended the session',
    socket_lost: 'the connection to the edge was lost',
    refused: 'the edge refused the connection',
    error: 'an error',
  }[reason];
  return detail ? `${base} (${detail})` : base;
}

/**
 * A log line fitted to a terminal `width` (the last column left free): each line of it
 * wraps at word boundaries and continues under its text, past the `[  9.2s] ` stamp.
 * Pipes get the lines whole (one event a line, for grep); the terminal gets them wrapped.
 */
export function wrapLogLine(text: string, width: number): string {
  const w = width - 1;
  return text
    .split('\n')
    .map((line) => {
      if (line.length <= w) return line;
      const stamp = /^\[[ \d.]+s\] /.exec(line)?.[0] ?? '';
      const pad = ' '.repeat(stamp.length);
      return wrapText(line.slice(stamp.length), w - stamp.length)
        .split('\n')
        .map((l, i) => (i === 0 ? stamp : pad) + l)
        .join('\n');
    })
    .join('\n');
}

/** The note for a reply cut by barge-in (the edge's `speech` `interrupted`, with what was `said`). */
export function interruptedNote(greeting: boolean, said: string): string {
  const what = `the ${greeting ? 'greeting' : 'reply'} was cut short (barge-in: you spoke or typed)`;
  return said.trim() ? `${what}; said: "${said.trim()}"` : `${what} before a word of it was said`;
}
