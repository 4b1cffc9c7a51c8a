/**
 * The post-commit slot (docs/turns.md "The post-commit slot"): each committed user turn
 * (a `reply-committed` frame the recorder stamped with its `seq`) goes to every post-commit
 * stage, then to the reply source that made its reply (a script's steps after the reply).
 */
import type {
  CommittedTurn,
  ControlEvent,
  DataFrame,
  FrameStage,
  PostCommitStage,
  StageContext,
} from './pipeline.js';

/** The post-commit slot: each committed user turn to every post-commit stage, then to the source that made its reply. */
export class PostCommitSlot implements FrameStage {
  readonly name = 'post-commit';
  readonly stages: PostCommitStage[] = [];
  constructor(private readonly ctx: StageContext) {}
  control(_e: ControlEvent): void {}
  process(f: DataFrame): void {
    if (f.type !== 'reply-committed' || f.user === null || f.seq === undefined) return;
    const committed: CommittedTurn = {
      ...f.user,
      speechId: f.speechId,
      language: f.language,
      seq: f.seq,
      ...(f.sourced ? { scripted: true as const } : {}),
    };
    // The loop never waits for a stage.
    for (const stage of this.stages) stage.committed(committed, this.ctx);
    f.sourced?.committed?.(committed);
  }
}
