/**
 * Speaks one streamed reply on the session's media: each sentence is synthesized once the
 * brain has finished it and the sentence before is on air, then queued on the stream, so
 * the first words play before the reply is complete. `interrupt()` is barge-in: the sentence on air is cut at the next
 * fragment boundary (media's ReplyHandle), the rest is dropped, and `said` is what the
 * user actually heard.
 */
import type { Speech, Voice, VoiceShape } from '../../models/index.js';
import { saidPrefix } from './conversation.js';
import type { ReplyHandle, SessionStream } from './parts.js';

/**
 * How long before the chunk on air ends the next one's audio must be ready: its media is
 * made after synthesis (the first AAC frames take 10-30 ms on a quiet box, up to a few
 * hundred on a loaded one), and the stream must have it queued before the last fragment
 * of the chunk on air is sent.
 */
export const NEXT_CHUNK_MARGIN_MS = 500;

interface Spoken {
  text: string;
  speech: Speech;
  handle: ReplyHandle;
}

export class ReplySpeaker {
  private readonly spoken: Spoken[] = [];
  private chain: Promise<void> = Promise.resolve();
  private cut: number | null = null;
  private cutIndex = -1;
  /** Sum of the audio of every sentence queued, in ms. */
  audioMs = 0;

  constructor(
    private readonly voice: Voice,
    private readonly stream: SessionStream,
    private readonly lang: string,
    private readonly shape: VoiceShape | undefined,
    private readonly onFirstAudio: () => void,
  ) {}

  private queued = 0;

  /**
   * Queue one sentence (synthesis runs in order; playback follows on the stream). The
   * reply's first sentence is said in two chunks (firstWords): synthesis time grows with
   * the text, and the first words are what the listener waits for. Each chunk tells the
   * voice when its audio is needed (`neededInMs`): the first at once, every later one by
   * the time the chunk before it has played (less a margin for its media), so a box making
   * many replies at once makes every reply's first words before anyone's second chunk, and
   * the second chunks still before they are heard (docs/media.md "Synthesis, earliest
   * deadline first").
   */
  say(text: string): void {
    if (this.queued++ === 0) {
      for (const chunk of firstWords(text)) this.sayChunk(chunk);
      return;
    }
    this.sayChunk(text);
  }

  private sayChunk(text: string): void {
    this.chain = this.chain.then(async () => {
      // Paced: a sentence is made once the one before it is on air (its first fragment
      // sent), not while that one's first words are still being encoded: on a busy box the
      // two would compete for the CPU, and a sentence lasts far longer than the next takes
      // to make. The first chunk goes at once.
      const before = this.spoken.at(-1);
      await before?.handle.started;
      if (this.cut !== null) return;
      // Word timings only if the user barges in (said()): they cost a second synthesis pass.
      const speech = await this.voice.synthesize(text, {
        lang: this.lang,
        neededInMs: before ? Math.max(0, before.speech.durationMs - NEXT_CHUNK_MARGIN_MS) : 0,
        lazyWords: true,
        ...(this.shape ? { shape: this.shape } : {}),
      });
      if (this.cut !== null) return;
      // Queued on the stream at once: the stream plays replies back to back in order and
      // starts encoding the next when the last one's encode ends, so there is no idle gap.
      const first = this.spoken.length === 0;
      this.spoken.push({ text, speech, handle: this.stream.speak(speech) });
      this.audioMs += speech.durationMs;
      if (first) this.onFirstAudio();
    });
  }

  /** Resolves when every queued sentence has played (or the reply was cut). */
  async finished(): Promise<void> {
    await this.chain;
    for (const s of [...this.spoken]) await s.handle.done;
  }

  /** Barge-in: cut what is playing; later sentences never start. */
  interrupt(): void {
    if (this.cut !== null) return;
    // Every queued sentence is interrupted; the first with audio left is the one on air.
    let cutAt = -1;
    let played = 0;
    this.spoken.forEach((s, i) => {
      const ms = s.handle.interrupt();
      if (cutAt < 0 && ms < s.speech.durationMs) {
        cutAt = i;
        played = ms;
      }
    });
    this.cutIndex = cutAt < 0 ? this.spoken.length : cutAt;
    this.cut = played;
  }

  get interrupted(): boolean {
    return this.cut !== null;
  }

  /** The reply as heard: whole sentences before the cut plus the words of the cut one. */
  async said(full: string): Promise<string> {
    if (this.cut === null) return full;
    const parts = this.spoken.slice(0, this.cutIndex).map((s) => s.text);
    const on = this.spoken[this.cutIndex];
    if (on)
      parts.push(
        saidPrefix(
          on.text,
          this.cut,
          on.speech.durationMs,
          on.speech.words ?? (await on.speech.timeWords?.()),
        ),
      );
    return parts.filter(Boolean).join(' ');
  }
}

/** Words a chunk should not end on: the next word belongs with them. */
const LEADING =
  /^(a|an|the|of|to|in|on|at|by|for|from|with|and|or|but|as|is|are|was|my|your|our|their|its|his|her|this|that|i|you|we|they|it|he|she|not|very|so)$/i;

/**
 * A reply's first sentence as its first chunk and the rest: the first clause when it ends
 * (at a comma, semicolon, colon or dash) within six words, else the first four to six words
 * (ending on a word that does not lead into the next: "I live in a small | flat by the
 * sea."); a sentence of fewer than eight words and no early clause is said whole. The
 * chunks joined with a space are the sentence, so what is said and stored is unchanged.
 */
export function firstWords(sentence: string): string[] {
  const words = sentence.trim().split(/\s+/);
  if (words.length < 2) return [sentence];
  const split = (k: number) => [words.slice(0, k).join(' '), words.slice(k).join(' ')];
  for (let k = 1; k <= Math.min(6, words.length - 1); k++)
    if (/[,;:\u2013\u2014]$/.test(words[k - 1]!)) return split(k);
  if (words.length < 8) return [sentence];
  for (let k = 4; k <= 6; k++)
    if (!LEADING.test(words[k - 1]!.replace(/[^\p{L}\p{N}']/gu, ''))) return split(k);
  return [sentence];
}
