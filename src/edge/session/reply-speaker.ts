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
  private chunks = 0;

  /**
   * Queue one sentence (synthesis runs in order; playback follows on the stream). The
   * reply's first sentence is split at its first comma: synthesis time grows with the text,
   * and the first words are what the listener waits for.
   */
  say(text: string): void {
    if (this.queued++ === 0) {
      const m = /^(.{12,}?[,;:])\s+(.{12,})$/s.exec(text);
      if (m) {
        this.sayChunk(m[1]!);
        this.sayChunk(m[2]!);
        return;
      }
    }
    this.sayChunk(text);
  }

  private sayChunk(text: string): void {
    // The reply's first chunk is what the listener waits for: the Voice serves it first.
    const urgent = this.chunks++ === 0;
    this.chain = this.chain.then(async () => {
      // Paced: a sentence is made once the one before it is on air (its first fragment
      // sent), not while that one's first words are still being encoded: on a busy box the
      // two would compete for the CPU, and a sentence lasts far longer than the next takes
      // to make. The first chunk goes at once.
      await this.spoken.at(-1)?.handle.started;
      if (this.cut !== null) return;
      // Word timings only if the user barges in (said()): they cost a second synthesis pass.
      const speech = await this.voice.synthesize(text, {
        lang: this.lang,
        urgent,
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
