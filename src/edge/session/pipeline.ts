/**
 * The turn loop as a pipeline of small stages (issue 15; STYLE.md "small stages, one
 * coordinator"; the shape of Pipecat's frame processors and LiveKit Agents' speech handle):
 *
 *   mic -> voice activity and utterances -> recognition -> turn commit
 *       -> [pre-speech gates] -> reply generation -> voice -> media
 *                             -> `turn` message, stored -> [post-commit stages]
 *
 * Data flows forward (frames, utterances, text, sentences, speech). Control events cut
 * across: each goes to every stage at once, through `ControlBus.send`, never as a chain of
 * direct calls. A typed turn and a spoken turn enter the same way (`UserTurn`), after
 * recognition. docs/turns.md describes each stage and the events.
 */
import type { EndReason } from './live-session.js';
import type { z } from 'zod';
import type { AgentEventMessage } from '../../contract/edge/messages.js';
import type { BrainUsage } from '../../models/brain.js';
import type { BrainReply } from './sourced-replies.js';

/** An `agent_event` message of the contract without its `type` (the loop adds it). */
export type AgentEventBody =
  z.input<typeof AgentEventMessage> extends infer M
    ? M extends unknown
      ? Omit<M, 'type'>
      : never
    : never;

/** Control events: every stage sees every one, in the order sent. */
export type ControlEvent =
  /** The user took the turn while the avatar had it: `speech` from the mic, `typed` from /chat. */
  | { type: 'barge-in'; by: 'speech' | 'typed' }
  /** A typed turn arrived (/chat, v2 `chat`): the mic's utterance under way is not interrupted, the greeting is dropped. */
  | { type: 'typed-turn'; text: string }
  /** The reply under way is dropped without a new user turn (a failed brain, or a post-commit stage's choice). */
  | { type: 'cancel'; speechId: string }
  /** The session ended: stages stop, free what they hold, and take no more work. */
  | { type: 'end'; reason: EndReason };

/** A stage: one job, and how it reacts to control events. */
export interface Stage {
  readonly name: string;
  control(e: ControlEvent): void;
}

/** Sends each control event to every stage, in the order they were added. */
export class ControlBus {
  private readonly stages: Stage[] = [];

  add(stage: Stage): void {
    this.stages.push(stage);
  }

  send(e: ControlEvent): void {
    // A stage's failure must not keep the event from the others (an `end` above all).
    for (const s of [...this.stages]) {
      try {
        s.control(e);
      } catch {
        /* the stage's own error reporting happens in the stage */
      }
    }
  }
}

/**
 * Data frames, in order through the stages that take them (`Pipeline.push`): what a reply
 * answers (a user turn, the greeting, an avatar line, an act queued after them), then the
 * reply's commit and its end.
 */
export type DataFrame =
  /** A user turn, typed or recognised (`speechId`: its reply's, given by the turn queue when absent). */
  | { type: 'user-turn'; turn: UserTurn; speechId?: string }
  | { type: 'greeting'; speechId: string }
  /** An avatar line (a follow-up, a filler, a script's line): said if `stillWanted()` when its turn comes; `fails`: it fails as a brain that is down. */
  | { type: 'line'; text: string; speechId: string; stillWanted?: () => boolean; fails?: string }
  /** Run once everything queued before it has been answered and played (a script's `end`). */
  | { type: 'act'; run: () => void }
  | ReplyCommitted
  | ReplyEnded;

/** What a reply answers: the data frames the turn queue takes. */
export type Cue = Extract<DataFrame, { type: 'user-turn' | 'greeting' | 'line' | 'act' }>;

/** A reply is made: its `turn` message goes out and it is stored (the recorder stamps its `seq`). */
export interface ReplyCommitted {
  type: 'reply-committed';
  speechId: string;
  /** The user turn it answers (null: the greeting or an avatar line). */
  user: UserTurn | null;
  greeting: boolean;
  text: string;
  /** The language the reply is in. */
  language: string;
  usage: BrainUsage;
  /** Spoken on the media (else brain-only: the `turn` message carries the brain payload). */
  spoken: boolean;
  /** Who made it (`brain.name` of a brain-only `turn`). */
  by: string;
  sourced: SourcedReply | null;
  /** Its transcript seq, once stored (an avatar line is stored when it has played). */
  seq?: number;
}

/** A reply is over: played out, cut, or never announced (the session ended, or the brain failed). */
export interface ReplyEnded {
  type: 'reply-ended';
  speechId: string;
  user: string | null;
  language: string;
  /** What the listener heard. */
  said: string;
  cutBy: 'barge-in' | 'end' | 'cancel' | null;
  /** Its `turn` message went out (a `reply-committed` came before). */
  announced: boolean;
}

/** A stage that takes data frames. */
export interface FrameStage extends Stage {
  process(frame: DataFrame): void;
}

const CONTROL = new Set(['barge-in', 'typed-turn', 'cancel', 'end']);

/**
 * The session's stages in order. `push` sends a data frame through every stage that takes
 * frames, in the order they were added; a control event goes on the priority lane (the
 * ControlBus): to every stage at once, never behind data.
 */
export class Pipeline {
  readonly bus = new ControlBus();
  private readonly stages: FrameStage[] = [];

  add(stage: Stage | FrameStage): void {
    this.bus.add(stage);
    if ('process' in stage) this.stages.push(stage);
  }

  push(frame: DataFrame | ControlEvent): void {
    if (CONTROL.has(frame.type)) return this.bus.send(frame as ControlEvent);
    for (const s of this.stages) s.process(frame as DataFrame);
  }
}

/** A user turn as it enters turn commit: the same shape typed or spoken. */
export interface UserTurn {
  text: string;
  source: 'typed' | 'speech';
  /** The recogniser could not make out the speech: `text` says why and the avatar asks again. */
  unrecognised?: boolean;
}

/** A committed user turn, as post-commit stages see it (never speculative, never the avatar's own). */
export interface CommittedTurn extends UserTurn {
  /** The speech id of the reply that answers it (its `turn` message carries the same). */
  speechId: string;
  /** The reply's language. */
  language: string;
  /** Its place in the transcript (the stored turn's `seq`). */
  seq: number;
  /** A reply source other than the brain answered it (a script): the tools verdict does not run for it. */
  scripted?: true;
}

/** What a post-commit stage may do with the session. */
export interface StageContext {
  /** Send an `agent_event` message on /events (spec 6.1), e.g. `{ kind: 'calling', ... }`. */
  emit(event: AgentEventBody): void;
  /**
   * Speak a line as an avatar turn (a follow-up or a filler): it goes out as a `turn` with
   * empty user text, is stored, and plays after what is queued, if `stillWanted()` (when
   * given) still holds when its turn comes. Returns its speech id.
   */
  say(text: string, stillWanted?: () => boolean): string;
  /**
   * The next user turn's reply starts with this line (spec 6.2 step 4: a tool result the
   * user talked over colours the next reply). Taken once.
   */
  colour(text: string): void;
  /**
   * Add a bracketed note to the conversation the brain reads from here on (spec 6.2: a tool
   * result "appended to the history as a bracketed note never spoken").
   */
  note(text: string): void;
  /** listening, thinking or speaking (spec 6.2 step 5: a filler only while the avatar is silent). */
  state(): 'listening' | 'thinking' | 'speaking';
  /** Whether the session ended (a stage stops its work then). */
  ended(): boolean;
}

/**
 * The post-commit slot (the tools lifecycle of spec 6.2 plugs in here): called once per
 * committed user turn, once its `turn` message is out and it is stored (while its reply
 * plays). Whatever it returns, the reply goes on;
 * its promise is not awaited by the loop (a slow tool call never holds the reply), and a
 * barge-in or the end reaches it through `control`.
 */
export interface PostCommitStage extends Stage {
  committed(turn: CommittedTurn, ctx: StageContext): void;
}

/**
 * How long a pre-speech gate may hold a reply (docs/tools.md "The fast lane"; ours: spec 2
 * says only that a `fast` tool answers "in a few hundred ms").
 */
export const PRE_SPEECH_GATE_MS = 800;
/** The loop's own guard past a gate's budget (a stage that overruns never holds a reply long). */
export const GATE_GRACE_MS = 100;

/** What a pre-speech gate hands the reply it held. */
export interface GateOutcome {
  /** A bracketed note the brain reads right after the user's words, then in the history from this turn on. */
  note: string;
  /** The reply starts with this line (how the local brain answers with a result). */
  lead?: string;
  /** A system line for this reply's generation only (how an upstream model is told to use the note). */
  instruction?: string;
}

/**
 * A pre-speech gate (spec 2, tool `fast`: "routes through the pre-speech gate"): called for
 * each user turn with words, once it is accepted and before its reply is generated. The
 * reply waits for the promise; the stage bounds it itself, within PRE_SPEECH_GATE_MS on the
 * session clock, and answers null at once when `cut` aborts (a barge-in or the end). The
 * loop stops waiting GATE_GRACE_MS past the budget whatever the stage does (a stage that
 * answers later is ignored); a rejection is the same as null.
 */
export interface PreSpeechStage extends Stage {
  gate(
    turn: { seq: number; text: string },
    cut: AbortSignal,
    ctx: StageContext,
  ): Promise<GateOutcome | null>;
}

/** A user turn with words as a reply source sees it. */
export interface SourceTurn {
  text: string;
  /** Its index among this session's user turns, from 0 (every user turn counts, answered or not). */
  index: number;
}

/** What a reply source answers a turn with. */
export interface SourcedReply {
  /** The reply, in the brain's shape (it may fail as a brain does). */
  made: BrainReply;
  /** Who made it (the brain-only `turn` message's `brain.name`). */
  by: string;
  /** Called once the turn committed (its `turn` message is out and it is stored), as a post-commit stage is. */
  committed?(turn: CommittedTurn): void;
}

/**
 * A reply source (docs/turns.md "Reply sources"): tried in order for each user turn with
 * words, before the pre-speech gates and the brain; the first that answers makes the reply
 * (then no gate runs and the tools verdict skips the turn); null lets the next one try.
 */
export interface ReplySource extends Stage {
  answer(turn: SourceTurn): Promise<SourcedReply | null>;
}
