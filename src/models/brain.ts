/**
 * The brain: turns a conversation into a reply (ARCHITECTURE property 5). One interface
 * serves the edge's turn loop and compat-a `chat/completions` (spec 4.12). The default is
 * deterministic and offline (src/models/brain/local.ts); an OpenAI-compatible upstream
 * (`--llm-url`) is the other implementation.
 */
export interface BrainMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface BrainRequest {
  /** The whole conversation, system prompt first (prompt, backstory and memory folded in by the caller or passed below). */
  messages: BrainMessage[];
  /** What the session froze, for a brain that answers from it (persona name, backstory, memory block). */
  persona?: { name?: string; backstory?: string | null; memory?: string | null };
  /**
   * The session's tools, when it has any. The local brain words a turn on which one fires
   * ("Let me draw that for you.", the tool's `cover_line`) by the same deterministic verdict
   * rule the box calls it by (brain/tool-verdict.ts), so the reply and the call agree.
   */
  tools?: readonly {
    name: string;
    description: string;
    input_schema: Record<string, unknown>;
    cover_line?: string;
  }[];
  /** Reply language (BCP-47 or display name); a preference. */
  language?: string | null;
  model?: string;
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
}

export interface BrainUsage {
  promptTokens: number;
  completionTokens: number;
  /**
   * Why the reply ended (compat-a `finish_reason`): `stop` when it was complete, `length`
   * when `maxTokens` cut it. Optional so older implementations still type-check.
   */
  finishReason?: 'stop' | 'length';
  /**
   * The language the reply is written in, when the brain knows it (the local brain: the one
   * asked for when its phrase table has it, else `en`). The edge reports it as the turn's
   * `language` (docs/fidelity.md "Edge trial fixes (session 3)"). Optional, additive.
   */
  language?: string;
}

export interface Brain {
  readonly name: string;
  /**
   * Stream the reply as text deltas (a sentence or a few tokens each), so the first sentence
   * can be spoken before the reply is complete. `usage` resolves when the stream ends.
   */
  reply(req: BrainRequest): { deltas: AsyncIterable<string>; usage: Promise<BrainUsage> };
  /**
   * The tool verdict after a committed user turn (spec 6.2 step 1): a separate,
   * non-streamed generation that picks at most one tool. Optional: a brain without it (the
   * local one) gets the deterministic rule of brain/tool-verdict.ts.
   */
  verdict?(
    req: BrainRequest,
    tools: readonly { name: string; description: string; input_schema: Record<string, unknown> }[],
  ): Promise<{ tool: string; args: Record<string, unknown> } | null>;
}
