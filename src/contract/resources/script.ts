/**
 * Conversation scripts (ours, not in the spec; docs/testing.md "Conversation scripts"): the
 * avatar's side of a session, written by a test or a demo. A script applies to the sessions
 * its `match` selects (chosen at mint, frozen with the session like everything else) and
 * answers each committed user turn with the first rule whose `when` holds: its `then` steps
 * run in order. A turn no rule matches falls through to the brain, or with `strict: true`
 * is answered "[no script rule for: ...]".
 *
 * The same schema validates `--script FILE`, the seed's `scripts:`, `POST /_emulator/scripts`
 * and is published as schemas/script.schema.json.
 */
import { z } from 'zod';

/** A tool name as spec 2 allows it. */
const ToolName = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must match [a-zA-Z0-9_-]{1,64}');

/** Which sessions a script applies to; every key given must hold; none given: every session. */
export const ScriptMatch = z
  .object({
    persona: z.string().min(1).max(100).optional().describe('a stock persona key (mint `persona`)'),
    avatar_id: z.uuid().optional().describe('a custom avatar (mint `avatar_id`)'),
    metadata: z
      .record(z.string().min(1).max(100), z.union([z.string(), z.number(), z.boolean()]))
      .optional()
      .describe('keys of the mint `metadata` that must be equal, e.g. { script: "checkout" }'),
  })
  .strict();
export type ScriptMatch = z.infer<typeof ScriptMatch>;

/** When a rule applies to a committed user turn; every condition given must hold. */
export const ScriptWhen = z
  .object({
    text: z
      .string()
      .min(1)
      .max(1000)
      .superRefine((text, ctx) => {
        // Compiled as the box compiles it: a bad one is refused at load, never met in a turn.
        try {
          new RegExp(text, 'i');
        } catch (e) {
          ctx.addIssue({
            code: 'custom',
            message: `not a valid regular expression: ${(e as Error).message}`,
          });
        }
      })
      .optional()
      .describe('a case-insensitive regular expression (JavaScript syntax) on the user turn'),
    turn: z.int().min(0).max(10_000).optional().describe("the user turn's index, from 0"),
  })
  .strict();
export type ScriptWhen = z.infer<typeof ScriptWhen>;

/** One step of a rule's `then`, run in order. */
export const ScriptStep = z.union([
  z.object({ say: z.string().min(1).max(2000).describe('a line spoken as the reply') }).strict(),
  z
    .object({
      tool: ToolName.describe("a tool of the session's resolved tools"),
      args: z.record(z.string(), z.unknown()).default({}).describe('the call arguments'),
    })
    .strict(),
  z
    .object({ wait_ms: z.int().min(0).max(60_000).describe('pause, on the session clock') })
    .strict(),
  z
    .object({ fail: z.literal('brain').describe('the reply fails, as a `brain_fail` fault') })
    .strict(),
  z
    .object({
      end: z.string().min(1).max(200).describe('end the session; the reason is logged'),
    })
    .strict(),
]);
export type ScriptStep = z.infer<typeof ScriptStep>;

export const ScriptRule = z
  .object({
    when: ScriptWhen.default({}),
    then: z.array(ScriptStep).min(1).max(50),
  })
  .strict();
export type ScriptRule = z.infer<typeof ScriptRule>;

export const Script = z
  .object({
    name: z
      .string()
      .regex(/^[a-zA-Z0-9_.-]{1,100}$/, 'must match [a-zA-Z0-9_.-]{1,100}')
      .describe('unique among loaded scripts; loading the same name again replaces it'),
    match: ScriptMatch.default({}),
    strict: z.boolean().default(false),
    tools: z
      .array(ToolName)
      .max(64)
      .default([])
      .describe(
        'tools this script calls that the emulator cannot know when it loads the script (inline hook tools sent at mint); a `tool` step must name one of these, a built-in tool or a tool of a registered MCP server',
      ),
    rules: z.array(ScriptRule).max(500).default([]),
  })
  .strict();
export type Script = z.infer<typeof Script>;
/** A script as written (defaults not yet applied). */
export type ScriptInput = z.input<typeof Script>;

/** Several scripts in one file or one `POST /_emulator/scripts` body. */
export const ScriptList = z.object({ scripts: z.array(Script).min(1).max(100) }).strict();
export type ScriptList = z.infer<typeof ScriptList>;

/** A script file (schemas/script.schema.json): one script, or `{ scripts: [...] }`. */
export const ScriptFile = z.union([Script, ScriptList]);

/** The step kinds, by the key that names each (a step is an object with exactly one of them). */
export const ScriptStepKinds = ['say', 'tool', 'wait_ms', 'fail', 'end'] as const;

/** A loaded script as listed by `GET /_emulator/scripts` (and `avatar emulator scripts list`). */
export const LoadedScript = z.object({
  name: z.string(),
  match: ScriptMatch,
  strict: z.boolean(),
  rules: z.number().int().describe('how many rules'),
  source: z.string().describe('where it was loaded from: a file, `seed FILE`, or `request`'),
  loaded_seq: z.number().int().describe('load order: later loads win ties (docs/testing.md)'),
});
export type LoadedScript = z.infer<typeof LoadedScript>;

/** The JSON Schema editors read (draft 2020-12), as published in schemas/script.schema.json. */
export function scriptJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ScriptFile, { io: 'input' }),
    $id: 'https://avatar.local/schemas/script.schema.json',
    title: 'avatar conversation script (one script, or { scripts: [...] })',
  };
}
