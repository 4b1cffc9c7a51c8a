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

/** The session's tool definitions once the box has read them (src/edge/tools/session-tools.ts). */
const sessionTools = new WeakMap<SessionSnapshot, NonNullable<BrainRequest['tools']>>();

/** The brain is told the session's tools, so the local one words a turn on which one fires. */
export function rememberTools(s: SessionSnapshot, tools: NonNullable<BrainRequest['tools']>): void {
  sessionTools.set(s, tools);
}

/** `user` null is the greeting: the conversation ends on a system instruction, not a user turn. */
export function brainRequest(
  s: SessionSnapshot,
  log: readonly LoggedTurn[],
  user: string | null,
  language: string,
  signal?: AbortSignal,
  greeting?: string,
  notes: readonly ConversationNote[] = [],
): BrainRequest {
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
  else if (greeting) messages.push({ role: 'system', content: greeting });
  return {
    messages,
    persona: { name: s.avatar.persona ?? undefined, backstory: s.backstory, memory: s.memoryBlock },
    language,
    ...(signal ? { signal } : {}),
    ...(sessionTools.has(s) ? { tools: sessionTools.get(s) } : {}),
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
