/**
 * The `turn` announcer (spec 6.1; docs/turns.md "Stages"): the `turn` message when a reply
 * commits (brain-only adds the brain payload, docs/edge.md; the greeting says so), and the
 * `speech` `interrupted` event when a spoken reply ends cut by a barge-in.
 */
import type { z } from 'zod';
import type { TurnMessage } from '../../contract/edge/messages.js';
import type { LiveSession } from './live-session.js';
import type { ControlEvent, DataFrame, FrameStage } from './pipeline.js';

export type TurnSend = (msg: z.input<typeof TurnMessage>) => void;

export class TurnAnnouncer implements FrameStage {
  readonly name = 'turn-announcer';

  constructor(
    private readonly session: LiveSession,
    /** Where `turn` messages go (a `delay_turn` fault wraps it: faults.ts). */
    private readonly send: TurnSend,
  ) {}

  control(_e: ControlEvent): void {}

  process(f: DataFrame): void {
    if (f.type === 'reply-committed') {
      const msg: z.input<typeof TurnMessage> = {
        type: 'turn',
        text: f.user?.text ?? '',
        reply: f.text,
        language: f.language,
        speech_id: f.speechId,
      };
      if (!f.spoken)
        msg.brain = {
          name: f.by,
          reply: f.text,
          usage: {
            prompt_tokens: f.usage.promptTokens,
            completion_tokens: f.usage.completionTokens,
          },
        };
      if (f.greeting) msg.greeting = true;
      this.send(msg);
    } else if (f.type === 'reply-ended' && f.announced && f.cutBy === 'barge-in') {
      this.session.broadcast('events', {
        type: 'speech',
        speech_id: f.speechId,
        status: 'interrupted',
        said: f.said,
      });
    }
  }
}
