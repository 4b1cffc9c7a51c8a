/**
 * One reply, from generation to media (the reply generation, voice and media stages of
 * pipeline.ts), as a handle in the manner of LiveKit's speech handle: it streams the brain's
 * deltas, cuts them into sentences, has them spoken (reply-speaker.ts) on the session's
 * stream, and can be cut at any point (`cut`). It knows how it ended and what was heard.
 */
import type { Brain } from '../../models/index.js';
import { SentenceSplitter } from './conversation.js';
import type { ReplySpeaker } from './reply-speaker.js';

type BrainReply = ReturnType<Brain['reply']>;

/** Why a reply stopped before its end: a user turn took over, the session ended, or it was dropped. */
export type CutBy = 'barge-in' | 'end' | 'cancel';

export class Reply {
  readonly abort = new AbortController();
  cutBy: CutBy | null = null;
  /** The text generated so far (the whole reply once `generate` resolved). */
  text = '';
  private endedNow!: () => void;
  /** Resolves when the session ends under the reply: nothing is waited for after that. */
  private readonly ended = new Promise<void>((r) => (this.endedNow = r));

  constructor(
    readonly speechId: string,
    /** null: brain-only, or nothing to speak on. */
    readonly speaker: ReplySpeaker | null,
  ) {}

  /** Stream the reply text; each finished sentence goes to the voice at once. Throws what the brain threw, unless cut. */
  async generate(out: BrainReply): Promise<void> {
    const split = new SentenceSplitter();
    try {
      for await (const delta of out.deltas) {
        this.text += delta;
        if (this.speaker) for (const sentence of split.push(delta)) this.speaker.say(sentence);
        if (this.abort.signal.aborted) break;
      }
    } catch (err) {
      if (!this.abort.signal.aborted) throw err instanceof Error ? err : new Error(String(err));
    }
    if (this.speaker && !this.abort.signal.aborted)
      for (const sentence of split.flush()) this.speaker.say(sentence);
    this.text = this.text.trim();
  }

  /** Stop generating and cut what is on air (at the next fragment boundary). */
  cut(by: CutBy): void {
    if (by === 'end') this.endedNow();
    if (this.cutBy) return;
    this.cutBy = by;
    this.speaker?.interrupt();
    this.abort.abort();
  }

  /** Nothing of it reached the listener (no audio queued, or brain-only with no text). */
  get unheard(): boolean {
    return this.speaker ? this.speaker.audioMs === 0 : this.text === '';
  }

  /** Resolves when it has played out or was cut; at once when the session ended (its stream closed: nothing more plays). */
  async played(): Promise<void> {
    if (this.speaker) await Promise.race([this.speaker.finished(), this.ended]);
  }

  /** What the listener heard: all of it, unless it was cut on air. */
  async heard(): Promise<string> {
    return this.speaker ? this.speaker.said(this.text) : this.cutBy ? '' : this.text;
  }
}
