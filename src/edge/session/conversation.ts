/**
 * The brain's view of a session: the frozen prompt, backstory, memory and history
 * (spec 4.5), then the turns so far, and the reply language: `response_language` (the
 * app's choice at mint, spec 4.5) for every reply; else the turn's own language (a typed
 * turn's text, when it tells; docs/edge.md); else the mic `hello` language (spec 4.6: the
 * language the user speaks); else the avatar's own language; else English.
 */
import type { BrainMessage, BrainRequest } from '../../models/index.js';
import type { LoggedTurn } from './live-session.js';
import type { SessionSnapshot } from './snapshot.js';

export function replyLanguage(s: SessionSnapshot, helloLang: string | null, turnLang: string | null = null): string {
  return s.responseLanguage ?? turnLang ?? helloLang ?? s.avatar.language ?? 'en';
}

/** `user` null is the greeting: the conversation ends on a system instruction, not a user turn. */
export function brainRequest(
  s: SessionSnapshot,
  log: readonly LoggedTurn[],
  user: string | null,
  language: string,
  signal?: AbortSignal,
  greeting?: string,
  notes: readonly { afterSeq: number; text: string }[] = [],
): BrainRequest {
  // The backstory and memory travel in `persona`: the local brain retrieves from them and the
  // OpenAI-compatible brain folds them into its system message (src/models/brain/openai.ts).
  const messages: BrainMessage[] = [];
  if (s.systemPrompt) messages.push({ role: 'system', content: s.systemPrompt });
  for (const m of s.history) messages.push({ role: m.role, content: m.content });
  for (const t of log) {
    if (t.user_text) messages.push({ role: 'user', content: t.user_text });
    if (t.reply_text) messages.push({ role: 'assistant', content: t.reply_text });
    // Tool results (spec 6.2 step 4): a bracketed note in the history, never spoken.
    for (const n of notes) if (n.afterSeq === t.seq) messages.push({ role: 'system', content: n.text });
  }
  if (user !== null) messages.push({ role: 'user', content: user });
  else if (greeting) messages.push({ role: 'system', content: greeting });
  return {
    messages,
    persona: { name: s.avatar.persona ?? undefined, backstory: s.backstory, memory: s.memoryBlock },
    language,
    ...(signal ? { signal } : {}),
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
 * reply is what was actually said"): whole words up to the cut, from word timings when
 * the voice gave them, else in proportion to the characters.
 */
export function saidPrefix(text: string, playedMs: number, totalMs: number, words?: { text: string; endMs: number }[]): string {
  if (playedMs >= totalMs) return text;
  if (words && words.length > 0) {
    const n = words.filter((w) => w.endMs <= playedMs).length;
    const tokens = text.split(/\s+/).filter(Boolean);
    if (tokens.length === words.length) return tokens.slice(0, n).join(' ');
  }
  const upto = Math.floor((text.length * Math.max(0, playedMs)) / Math.max(1, totalMs));
  const cut = text.slice(0, upto);
  const sp = cut.lastIndexOf(' ');
  return (upto >= text.length ? text : sp > 0 ? cut.slice(0, sp) : '').trim();
}
