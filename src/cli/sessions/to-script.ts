/**
 * `avatar sessions replay FILE --to-script OUT` (issue 29; docs/testing.md "Conversation
 * scripts"): a saved session (`sessions live --save-session`, for example one run against a
 * real model with `--llm-url`) turned into a conversation script that makes the emulator
 * answer as that recording did, with no model behind it. One rule per user turn, by its
 * index: the recorded reply as the first `say`, then in recorded order a `tool` step for
 * each tool the avatar called on that turn and a `say` for each avatar line after it (a
 * tool's follow-up). Order that depends on timing (a slow tool call recorded after the next
 * typed line) is not reproduced: the call stays with the turn that made it. `match` is the recording's persona or avatar_id and the scalar keys of its
 * metadata; `strict`, so a turn the recording did not have says so instead of guessing.
 *
 * What a recording cannot give: the arguments of a call (the edge's `calling` event does
 * not carry them): a built-in image tool's are rebuilt from the picture's caption, any
 * other tool's are `{}` (edit them in OUT). The greeting is not scripted (it comes from the
 * mint's config, which the replay sends again).
 */
import { basename, extname } from 'node:path';
import { BUILTIN_SERVERS } from '../../contract/builtins.js';
import { Script, type ScriptInput, type ScriptStep } from '../../contract/resources/script.js';
import type { SessionFile, TranscriptEntry } from '../live/session-file.js';

const BUILTIN_TOOLS = new Set(
  Object.values(BUILTIN_SERVERS).flatMap((defs) => defs.map((d) => d.name)),
);

/** A built-in tool's arguments from the caption of the picture it made (edge/tools/builtin-tools.ts). */
function argsFromCaption(tool: string, caption: string | undefined): Record<string, unknown> {
  if (caption === undefined) return {};
  if (tool === 'generate_image') return { prompt: caption };
  // edit_avatar's caption is "<persona>, <instruction>".
  if (tool === 'edit_avatar') return { instruction: caption.replace(/^[^,]*, /, '') };
  return {};
}

/** The script's name: the recording's file name, in the characters a name may have. */
export function scriptName(file: string): string {
  const stem = basename(file, extname(file)).replace(/[^a-zA-Z0-9_.-]+/g, '-');
  return (stem.replace(/^-+|-+$/g, '') || 'recording').slice(0, 100);
}

interface Segment {
  reply: string | null;
  after: ScriptStep[];
}

/** The tools the recording's mint marked `fast` (their call comes before the turn's reply). */
function fastTools(mint: Record<string, unknown>): Set<string> {
  const inline = (mint.tools as { inline?: unknown } | undefined)?.inline;
  return new Set(
    (Array.isArray(inline) ? inline : [])
      .filter(
        (t): t is { name: string; fast: true } =>
          !!t && typeof t === 'object' && t.fast === true && typeof t.name === 'string',
      )
      .map((t) => t.name),
  );
}

/**
 * The user turns of a recording, each with what the avatar did: its reply, then its tool
 * calls and later lines. A call belongs to the last user turn recorded before it, except a
 * `fast` tool's, which comes before its own turn's reply: that one belongs to the typed
 * line still waiting for its turn, when there is one.
 */
function segments(rec: SessionFile): Segment[] {
  const entries: TranscriptEntry[] = rec.transcript;
  const fast = fastTools(rec.mint);
  const out: Segment[] = [];
  /** Typed lines sent whose turn has not been recorded yet, each with its segment. */
  const waiting: Segment[] = [];
  let last: Segment | null = null;
  const segment = (): Segment => {
    const s: Segment = { reply: null, after: [] };
    out.push(s);
    return s;
  };
  const calling = rec.events.filter((x) => x.event === 'agent_event' && x.kind === 'calling');
  let calls = 0;
  for (const e of entries) {
    if (e.event === 'said') {
      waiting.push(segment());
      continue;
    }
    if (e.event === 'turn') {
      if (e.greeting) continue;
      if (e.text !== '') {
        const s = waiting.shift() ?? segment();
        s.reply = e.reply;
        last = s;
      } else if (last && e.reply) last.after.push({ say: e.reply });
      continue;
    }
    if (e.event !== 'agent_event' || e.kind !== 'calling' || !e.tool) continue;
    const owner = fast.has(e.tool) && waiting.length ? waiting[0]! : (last ?? waiting[0]);
    // The picture this call made, in the full event log, names its arguments (built-in tools).
    const c = calling[calls++];
    const callId = c?.event === 'agent_event' ? c.call_id : undefined;
    const made = rec.events.find(
      (x) =>
        x.event === 'agent_event' &&
        x.kind === 'image' &&
        (callId ? x.call_id === callId : x.tool === e.tool),
    );
    const caption = made?.event === 'agent_event' ? made.caption : undefined;
    owner?.after.push({ tool: e.tool, args: argsFromCaption(e.tool, caption) });
  }
  return out;
}

/** The script that answers as `rec` did (see the module comment). */
export function scriptFromSession(rec: SessionFile, name: string): ScriptInput {
  const mint = rec.mint as {
    persona?: unknown;
    avatar_id?: unknown;
    metadata?: Record<string, unknown>;
  };
  const match: NonNullable<ScriptInput['match']> = {};
  if (typeof mint.persona === 'string') match.persona = mint.persona;
  if (typeof mint.avatar_id === 'string') match.avatar_id = mint.avatar_id;
  const metadata = Object.fromEntries(
    Object.entries(mint.metadata ?? {}).filter(
      ([k, v]) =>
        k.length > 0 &&
        k.length <= 100 &&
        (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'),
    ),
  ) as Record<string, string | number | boolean>;
  if (Object.keys(metadata).length) match.metadata = metadata;

  const rules = segments(rec).flatMap((s, turn) => {
    const then: ScriptStep[] = [...(s.reply ? [{ say: s.reply }] : []), ...s.after];
    return then.length ? [{ when: { turn }, then }] : [];
  });
  const tools = [
    ...new Set(
      rules.flatMap((r) =>
        r.then.flatMap((st) => ('tool' in st && !BUILTIN_TOOLS.has(st.tool) ? [st.tool] : [])),
      ),
    ),
  ];
  const script: ScriptInput = {
    name,
    match,
    strict: true,
    ...(tools.length ? { tools } : {}),
    rules,
  };
  // What is written loads: checked against the contract here, not first by the emulator.
  Script.parse(script);
  return script;
}
