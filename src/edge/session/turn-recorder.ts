/**
 * The turn recorder (docs/turns.md "Stages"): stores each turn on the session's log and the
 * control plane (spec 4.5 `source: store`) as it commits, then rewrites it when its reply
 * ends cut by a barge-in. A user turn is stored when its reply commits; a spoken avatar
 * turn (the greeting, a line) once it is known what of it was said, and not at all when cut
 * before its first word; a reply never announced (the session ended, the brain failed) is
 * stored with the words said, the user's words always.
 */
import type { LiveSession, LoggedTurn } from './live-session.js';
import type { ControlEvent, DataFrame, FrameStage } from './pipeline.js';

export class TurnRecorder implements FrameStage {
  readonly name = 'turn-recorder';
  /** Turns stored at commit whose reply still plays, by speech id. */
  private readonly playing = new Map<string, LoggedTurn>();

  constructor(
    private readonly session: LiveSession,
    private readonly store: (turn: LoggedTurn) => void,
  ) {}

  control(_e: ControlEvent): void {}

  process(f: DataFrame): void {
    if (f.type === 'reply-committed') {
      // A spoken avatar turn has no user words to keep: stored once it has played.
      if (f.user === null && f.spoken) return;
      const t = this.commit({
        user_text: f.user?.text ?? '',
        reply_text: f.text,
        language: f.language,
        speech_id: f.speechId,
        outcome: f.spoken ? 'spoken' : 'text',
      });
      f.seq = t.seq;
      if (f.spoken) this.playing.set(f.speechId, t);
      return;
    }
    if (f.type !== 'reply-ended') return;
    const stored = this.playing.get(f.speechId);
    this.playing.delete(f.speechId);
    if (!f.announced) {
      // Cut before its `turn` message: the user's words with what was said (usually nothing).
      if (f.user !== null || f.said)
        this.commit({
          user_text: f.user ?? '',
          reply_text: f.said,
          language: f.language,
          speech_id: f.speechId,
          outcome: f.said ? 'interrupted' : 'unanswered',
        });
    } else if (stored && f.cutBy === 'barge-in') {
      // Only a barge-in rewrites a stored reply (docs/fidelity.md); a release or a cap keeps it whole.
      stored.reply_text = f.said;
      stored.outcome = 'interrupted';
      this.store(stored);
    } else if (!stored && f.user === null && f.said) {
      this.commit({
        user_text: '',
        reply_text: f.said,
        language: f.language,
        speech_id: f.speechId,
        outcome: f.cutBy ? 'interrupted' : 'spoken',
      });
    }
  }

  private commit(turn: Omit<LoggedTurn, 'seq'>): LoggedTurn {
    const t: LoggedTurn = { seq: this.session.log.length, ...turn };
    this.session.log.push(t);
    this.store(t);
    return t;
  }
}
