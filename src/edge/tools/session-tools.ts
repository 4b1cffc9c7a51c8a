/**
 * Tools for one session on a box: the resolved tools (read from the control plane over
 * the internal box API), the verdict (the brain's own tool calling, else the deterministic
 * rule), dispatch (the gateway for hook and MCP tools, the box itself for built-ins, which
 * it then reports), and the ToolStage plugged into the turn loop's post-commit slot.
 */
import { deterministicVerdict } from '../../models/brain/tool-verdict.js';
import { type Clock } from '../../contract/clock.js';
import { brainRequest, replyLanguage } from '../session/conversation.js';
import type { LiveSession } from '../session/live-session.js';
import type { EdgeParts } from '../session/parts.js';
import type { CommittedTurn } from '../session/pipeline.js';
import type { TurnQueue } from '../session/turn-queue.js';
import { runBuiltin, type ImageShelf } from './builtin-tools.js';
import { ToolStage, type StageAnswer, type StageCall, type StageTool } from './tool-stage.js';

/** The box's side of the gateway (internal box API). */
export interface ToolLink {
  /** The session's resolved tools, the budget left and why the channel is disabled (null: open). */
  tools(sessionId: string): Promise<{ tools: StageTool[]; left: number; disabled: string | null }>;
  call(sessionId: string, call: StageCall): Promise<StageAnswer>;
  report(
    sessionId: string,
    report: StageCall & { ok: boolean; ms: number; result: unknown },
  ): Promise<StageAnswer>;
  shelf: ImageShelf;
}

/** How many recent turns go with a call as `history` (ours). */
export const HISTORY_TURNS = 6;

interface SessionToolsDeps {
  live: LiveSession;
  loop: TurnQueue;
  parts: EdgeParts;
  clock: Clock;
  link: ToolLink;
  log: (m: string) => void;
}

/**
 * The session's tool stage, plugged into the turn loop's post-commit slot (and its
 * pre-speech gate with a `fast` tool); null when the session has no tools.
 */
export async function attachTools(o: SessionToolsDeps): Promise<ToolStage | null> {
  const { tools } = await o.link.tools(o.live.id);
  if (tools.length === 0) return null;
  const stage = toolStageFor(o, tools);
  // The brain is told them too, while a call could go out now: the local one words a turn
  // on which one fires (docs/turns.md), never one the stage would hold back (in flight, cooldown).
  o.live.toolsNow = () => (stage.canDispatch() ? tools : null);
  // The post-commit slot (docs/turns.md): a committed user turn with words (never the
  // greeting, a stage's own line or unrecognised speech: spec 6.2 steps 1 and 6), and never
  // a turn a conversation script answered (the script decides its tools).
  const committed = {
    name: 'tools',
    // A call in flight outlives a barge-in (its result colours the next reply); its timers check ended().
    control: () => undefined,
    committed: (turn: CommittedTurn) => {
      if (!turn.unrecognised && !turn.scripted)
        stage.afterCommit({ seq: turn.seq, text: turn.text });
    },
  };
  // The fast lane (docs/tools.md): with a `fast` tool the stage is also a pre-speech gate,
  // so the verdict runs before each reply is made and a fast call's answer can shape it.
  o.loop.addStage(
    stage.fastLane
      ? {
          ...committed,
          gate: (turn: { seq: number; text: string }, cut: AbortSignal) => stage.gate(turn, cut),
        }
      : committed,
  );
  return stage;
}

/**
 * The tool stage of a session with these tools (none: a session whose conversation script
 * calls a tool it does not have, which then fails as `unknown_tool`).
 */
export function toolStageFor(
  o: Omit<SessionToolsDeps, 'link'> & { link: ToolLink | null },
  tools: StageTool[],
): ToolStage {
  const { live, loop, parts, clock, link } = o;
  const brain = parts.brain;
  /** What the brain is asked with: the session's context and log (and an instruction). */
  const sessionRequest = (instruction?: string, userText: string | null = null) =>
    brainRequest(live, userText, replyLanguage(live.snapshot, null), { instruction });
  const ctx = loop.ctx;
  return new ToolStage({
    clock,
    sessionId: live.id,
    tools,
    verdict: async (text, seq) => {
      if (brain.verdict) {
        // After the commit the turn is the log's last; in the pre-speech gate it is not stored yet.
        const stored = live.log.some((t) => t.seq === seq);
        return brain
          .verdict(sessionRequest(undefined, stored ? null : text), tools)
          .catch((e: unknown) => {
            o.log(`tool verdict failed: ${(e as Error).message}`);
            return null;
          });
      }
      return deterministicVerdict(text, tools);
    },
    dispatch: async (call, tool) => {
      if (!link) throw new Error('this box runs no tools');
      if (tool.source !== 'builtin') return link.call(live.id, call);
      // Built-ins run here; the control plane records them, counts the budget and fires webhooks.
      const state = await link.tools(live.id);
      if (state.disabled) return { ok: false, error: 'server_disabled', message: state.disabled };
      if (state.left <= 0)
        return { ok: false, error: 'budget_exhausted', message: 'max_calls reached' };
      const started = clock.now();
      const answer = await runBuiltin(
        tool.name,
        call.args,
        link.shelf,
        live.snapshot.avatar.persona ?? 'avatar',
      );
      const ms = clock.now() - started;
      void link
        .report(live.id, {
          ...call,
          ok: answer.ok,
          ms,
          result: answer.ok ? answer.result : answer.error,
        })
        .catch(() => undefined);
      return answer;
    },
    broadcast: (m) => live.broadcast('events', m),
    say: (text, wanted) => {
      ctx.say(text, wanted);
    },
    silent: () => loop.state === 'listening',
    userSpokeAfter: (seq) => live.log.some((t) => t.seq > seq && t.user_text !== ''),
    history: () =>
      live.log
        .slice(-HISTORY_TURNS)
        .flatMap((t) => [
          ...(t.user_text ? [{ role: 'user', content: t.user_text }] : []),
          ...(t.reply_text ? [{ role: 'assistant', content: t.reply_text }] : []),
        ]),
    note: (text) => ctx.note(text),
    colour: (text) => ctx.colour(text),
    ended: () => live.ended !== null,
    log: o.log,
    // An upstream brain words the follow-up itself, from the note and the tool's speak_hint.
    ...(brain.verdict
      ? {
          phrase: async (_line: string, note: string, tool: StageTool) => {
            const hint = tool.speak_hint ? ` ${tool.speak_hint}` : '';
            const req = sessionRequest(
              `${note}\nTell the user this result in one or two short sentences.${hint}`,
            );
            const out = brain.reply(req);
            let text = '';
            for await (const d of out.deltas) text += d;
            return text;
          },
        }
      : {}),
  });
}
