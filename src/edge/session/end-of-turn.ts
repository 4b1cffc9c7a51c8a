/**
 * The end-of-turn stage (issue 30 item 3; pipeline.ts): the voice-activity stage's utterance
 * detector asks it, at each silent mic frame, how much silence ends the turn
 * (`EndOfTurnPolicy`); the recognition stage tells it the words a streaming recogniser heard
 * (`heard`). The rule itself is pure (src/edge/turns/end-of-turn.ts); this stage only holds
 * it for one session and takes control events like every other stage: once the session
 * ended it hears no more words, and the wait is the plain hangover.
 */
import { EndOfTurnRule, type EndOfTurnPolicy, type EndOfTurnTunables } from '../turns/index.js';
import type { ControlEvent, Stage } from './pipeline.js';

export class EndOfTurnStage implements Stage, EndOfTurnPolicy {
  readonly name = 'end-of-turn';
  readonly rule: EndOfTurnRule;
  private ended = false;

  constructor(tunables: Partial<EndOfTurnTunables> = {}) {
    this.rule = new EndOfTurnRule(tunables);
  }

  setLang(lang: string | null): void {
    this.rule.setLang(lang);
  }

  /** The utterance's words so far, from a streaming recogniser (never a batch partial or the placeholder). */
  heard(text: string): void {
    if (!this.ended) this.rule.heard(text);
  }

  waitMs(hangoverMs: number): number {
    return this.rule.waitMs(hangoverMs);
  }

  speech(): void {
    this.rule.speech();
  }

  reset(): void {
    this.rule.reset();
  }

  control(e: ControlEvent): void {
    if (e.type !== 'end') return;
    this.ended = true;
    this.rule.reset();
  }
}
