/**
 * The brain's view of a session: the frozen prompt, backstory, memory and history
 * (spec 4.5), then the turns so far, and the reply language: `response_language` (the
 * app's choice at mint, spec 4.5) for every reply; else the turn's own language (a typed
 * turn's text, when it tells; docs/edge.md); else the mic `hello` language (spec 4.6: the
 * language the user speaks); else the avatar's own language; else English.
 */
import type { BrainMessage, BrainRequest } from '../../models/index.js';
import type { SpeechMark } from '../../models/voice.js';
import { playedText } from '../turns/index.js';
import type { LoggedTurn } from './live-session.js';
import type { SessionSnapshot } from './snapshot.js';

export function replyLanguage(
  s: SessionSnapshot,
  helloLang: string | null,
  turnLang: string | null = null,
): string {
  return s.responseLanguage ?? turnLang ?? helloLang ?? s.avatar.language ?? 'en';
}

/** A note a post-commit stage added to the conversation (pipeline.ts), after turn `afterSeq - 1`. */
export interface ConversationNote {
  afterSeq: number;
  text: string;
}

/** What a brain request is made from: a live session's frozen snapshot, turns, notes and tools. */
export interface Conversation {
  snapshot: SessionSnapshot;
  log: readonly LoggedTurn[];
  notes: readonly ConversationNote[];
  /**
   * The session's tool definitions while a call could go out now (src/edge/tools/session-tools.ts):
   * the local brain acknowledges a call only when one will be made.
   */
  toolsNow(): BrainRequest['tools'] | null;
}

/**
 * `user` null is the greeting (or a stage's own request): the conversation then ends on
 * `instruction`, a system line, instead of a user turn.
 */
export function brainRequest(
  c: Conversation,
  user: string | null,
  language: string,
  opts: { signal?: AbortSignal; instruction?: string } = {},
): BrainRequest {
  const { snapshot: s, log, notes } = c;
  const tools = c.toolsNow();
  const { signal, instruction } = opts;
  // The backstory and memory travel in `persona`: the local brain retrieves from them and the
  // OpenAI-compatible brain folds them into its system message (src/models/brain/openai.ts).
  const messages: BrainMessage[] = [];
  if (s.systemPrompt) messages.push({ role: 'system', content: s.systemPrompt });
  for (const m of s.history) messages.push({ role: m.role, content: m.content });
  const noteAt = (seq: number) => {
    for (const n of notes)
      if (n.afterSeq === seq) messages.push({ role: 'system', content: n.text });
  };
  for (const t of log) {
    noteAt(t.seq);
    if (t.user_text) messages.push({ role: 'user', content: t.user_text });
    if (t.reply_text) messages.push({ role: 'assistant', content: t.reply_text });
  }
  noteAt(log.length);
  if (user !== null) messages.push({ role: 'user', content: user });
  else if (instruction) messages.push({ role: 'system', content: instruction });
  return {
    messages,
    persona: { name: s.avatar.persona ?? undefined, backstory: s.backstory, memory: s.memoryBlock },
    language,
    ...(signal ? { signal } : {}),
    ...(tools ? { tools } : {}),
  };
}

/** Split streamed text into sentences so the first one is spoken before the reply is complete. */
export class SentenceSplitter {
  private buf = '';
  push(delta: string): string[] {
    this.buf += delta;
    const out: string[] = [];
    const re = /[^.!?。！？\n]*[.!?。！？\n]+(?:["')\]]*)(?=\s|$)/y;
    let m: RegExpExecArray | null;
    let last = 0;
    re.lastIndex = 0;
    while ((m = re.exec(this.buf)) && m[0].length > 0) {
      const s = m[0].trim();
      if (s) out.push(s);
      last = re.lastIndex;
      while (last < this.buf.length && /\s/.test(this.buf[last]!)) last++;
      re.lastIndex = last;
    }
    this.buf = this.buf.slice(last);
    return out;
  }
  flush(): string[] {
    const s = this.buf.trim();
    this.buf = '';
    return s ? [s] : [];
  }
}

/**
 * What was actually said of a reply cut after `playedMs` of `totalMs` (spec: "the stored
 * reply is what was actually said"): the words whose middle was played, in the reply's own
 * text (played-text.ts), from the voice's word timings, else evenly spread.
 */
export function saidPrefix(
  text: string,
  playedMs: number,
  totalMs: number,
  words?: SpeechMark[],
): string {
  return playedText(text, playedMs, { durationMs: totalMs, ...(words ? { words } : {}) }).text;
}
