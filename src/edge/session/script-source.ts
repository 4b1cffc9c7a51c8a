/**
 * The conversation script's reply source (docs/turns.md "Conversation scripts at run time";
 * the file format: docs/testing.md "Conversation scripts"). Tried first for each user turn
 * with words, before the pre-speech gates and the brain: the first rule whose `when` holds
 * answers it. The `say` steps before the first other step are the turn's reply; the steps
 * after run once the turn commits, in order (`ScriptRun`): a tool call through the session's
 * tool stage, a wait on the session clock, an avatar line, a failed line, the end. No rule:
 * the next source answers, or with `strict` the turn is answered "[no script rule for: ...]".
 */
import type { Script, ScriptStep } from '../../contract/resources/script.js';
import { type Clock } from '../../contract/clock.js';
import type { ControlEvent, ReplySource, SourcedReply, SourceTurn } from './pipeline.js';
import { fixedReply, failedReply } from './sourced-replies.js';

/** What the steps after a scripted reply act on (the session, its tools, its turn queue). */
export interface ScriptDeps {
  clock: Clock;
  log(line: string): void;
  /**
   * Dispatch a tool as a brain-chosen call is (ToolStage.scripted), with the script's own
   * follow-up line when it wrote one; resolves once its answer is delivered.
   */
  tool(seq: number, name: string, args: Record<string, unknown>, followUp?: string): Promise<void>;
  /** Queue an avatar line after what is queued, said if `stillWanted()` then. */
  say(text: string, stillWanted: () => boolean): void;
  /** Queue an avatar line that fails as a brain that is down (a `fail: brain` step after a wait or a tool). */
  fail(message: string): void;
  /** Queue the session's end after what is queued (an `end` step). */
  end(reason: string): void;
}

/** The error a `fail: brain` step fails a reply with (the same words as a `brain_fail` fault). */
export const SCRIPT_FAIL = 'the brain failed (a `fail: brain` step of the conversation script)';

/** The reply to a turn no rule matches in a strict script. */
export const noRuleReply = (text: string) => `[no script rule for: ${text}]`;

/** A compiled rule: its regular expression made once. */
interface Rule {
  text: RegExp | null;
  turn: number | null;
  steps: ScriptStep[];
}

/** Which rule answers a turn: the first whose every given condition holds (none given: every turn). */
export function matchRule(rules: readonly Rule[], turn: SourceTurn): Rule | null {
  return (
    rules.find(
      (r) =>
        (r.text === null || r.text.test(turn.text)) && (r.turn === null || r.turn === turn.index),
    ) ?? null
  );
}

/** The rules of a script, compiled; a rule whose expression does not compile never matches (logged). */
export function compileRules(script: Script, log: (line: string) => void): Rule[] {
  return script.rules.flatMap((r, i) => {
    let text: RegExp | null = null;
    if (r.when.text !== undefined) {
      try {
        text = new RegExp(r.when.text, 'i');
      } catch (e) {
        log(`script ${script.name}: rule ${i + 1} never matches: ${(e as Error).message}`);
        return [];
      }
    }
    return [{ text, turn: r.when.turn ?? null, steps: r.then }];
  });
}

/** A rule's steps split at the first step that is not a `say`: the reply's lines, then the rest. */
export function splitSteps(steps: readonly ScriptStep[]): { lines: string[]; rest: ScriptStep[] } {
  const k = steps.findIndex((s) => !('say' in s));
  const head = k < 0 ? steps : steps.slice(0, k);
  return {
    lines: head.map((s) => (s as { say: string }).say),
    rest: k < 0 ? [] : steps.slice(k),
  };
}

/**
 * The steps after a scripted reply, run in order once the turn committed. A barge-in, the
 * end, or the next user turn reaching the script cuts the run: the step under way stops (a
 * wait ends at once; a tool call goes on as any call does) and no later step starts; a line
 * already queued is not said when its turn comes.
 */
export class ScriptRun {
  private cutNow!: () => void;
  private readonly cutP = new Promise<'cut'>((r) => (this.cutNow = () => r('cut')));
  cut = false;

  constructor(
    private readonly d: ScriptDeps,
    private readonly steps: readonly ScriptStep[],
    private readonly seq: number,
  ) {}

  stop(): void {
    this.cut = true;
    this.cutNow();
  }

  async run(): Promise<void> {
    for (let i = 0; i < this.steps.length; i++) {
      const step = this.steps[i]!;
      if (this.cut) return;
      if ('say' in step) this.d.say(step.say, () => !this.cut);
      else if ('wait_ms' in step) await this.wait(step.wait_ms);
      else if ('tool' in step) {
        // A `say` right after a `tool` is that call's follow-up line, said with its result.
        const next = this.steps[i + 1];
        const followUp = next && 'say' in next ? next.say : undefined;
        if (followUp !== undefined) i++;
        await Promise.race([
          this.d.tool(this.seq, step.tool, step.args ?? {}, followUp),
          this.cutP,
        ]);
      } else if ('fail' in step) {
        this.d.fail(SCRIPT_FAIL);
        return;
      } else {
        this.d.log(`the conversation script ended the session: ${step.end}`);
        this.d.end(step.end);
        return;
      }
    }
  }

  private async wait(ms: number): Promise<void> {
    let timer: { cancel(): void } | null = null;
    const done = new Promise<void>((r) => (timer = this.d.clock.setTimeout(r, ms)));
    await Promise.race([done, this.cutP]);
    (timer as { cancel(): void } | null)?.cancel();
  }
}

/**
 * The script as a reply source. `script` settles once the box has read the session's script
 * (null: none); a turn that comes before waits for it.
 */
export class ScriptSource implements ReplySource {
  readonly name = 'script';
  private rules: Promise<{ script: Script; rules: Rule[] } | null>;
  private running: ScriptRun | null = null;

  constructor(
    script: Promise<Script | null>,
    private readonly d: ScriptDeps,
  ) {
    this.rules = script.then(
      (s) => (s ? { script: s, rules: compileRules(s, d.log) } : null),
      () => null,
    );
  }

  control(e: ControlEvent): void {
    if (e.type === 'barge-in' || e.type === 'end') this.running?.stop();
  }

  async answer(turn: SourceTurn): Promise<SourcedReply | null> {
    const s = await this.rules;
    if (!s) return null;
    // A new user turn: what the last rule had still to do is dropped.
    this.running?.stop();
    this.running = null;
    const rule = matchRule(s.rules, turn);
    if (!rule) {
      if (!s.script.strict) return null;
      this.d.log(`script ${s.script.name}: no rule for user turn ${turn.index}: ${turn.text}`);
      return { made: fixedReply(noRuleReply(turn.text)), by: 'script' };
    }
    const { lines, rest } = splitSteps(rule.steps);
    const failsNow = rest[0] !== undefined && 'fail' in rest[0];
    const made = failsNow ? failedReply(SCRIPT_FAIL, lines) : fixedReply(lines.join(' '));
    const after = failsNow ? [] : rest;
    return {
      made,
      by: 'script',
      ...(after.length > 0
        ? {
            committed: (t: { seq: number }) => {
              const run = new ScriptRun(this.d, after, t.seq);
              this.running = run;
              void run.run().catch((e: unknown) => this.d.log(`script: ${(e as Error).message}`));
            },
          }
        : {}),
    };
  }
}
