/**
 * A CLI command as data: `defineCommand({ name, summary, args, options, run })`. The option
 * table says each flag once (commander's flags string, its help line, default, required);
 * the type of `run`'s `options` and `args` is inferred from that table, so no command writes
 * its option types by hand. `addCommand(parent, def, cli)` turns a definition into a
 * commander command (help text, parsing and errors are commander's, unchanged).
 *
 * Inference from the flags string (as commander parses it):
 *   `--json`             boolean (absent: undefined)
 *   `--no-open`          boolean, true unless given
 *   `--model <id>`       string
 *   `--to [file]`        string | true
 *   `--scope <s...>`     string[]
 *   with `parse`         the parser's return type
 * An option with `default` or `required: true`, and a `--no-x` flag, is always present.
 * The table's key must be commander's attribute name of the flag (`--top-n` -> `topN`):
 * addCommand checks it, so a typo fails the first time the command is built.
 *
 * A group (a folder under src/cli/) lists its commands with `defineGroup`; see
 * src/cli/groups.ts for how groups are found and loaded lazily.
 */
import type { Command } from 'commander';
import { Option } from './commander.js';
import type { CliContext } from './context.js';

export interface OptionSpec {
  /** commander's flags: `-o, --out <file>`, `--json`, `--no-open`, `--scope <s...>`. */
  flags: string;
  description: string;
  default?: unknown;
  /** How help shows the default (commander's defaultValueDescription). */
  defaultDescription?: string;
  required?: boolean;
  choices?: readonly string[];
  /** Parse (and check) each value; its return type becomes the option's type. */
  parse?: (value: string, previous: never) => unknown;
  hidden?: boolean;
  /** Option attribute names this one cannot be combined with. */
  conflicts?: string | readonly string[];
  /** The help group heading of this option (commander's helpGroup). */
  helpGroup?: string;
}

/** A positional argument: `<id>`, `[event]`, `<files...>`, with an optional help line. */
export type ArgSpec = string | { usage: string; description?: string; default?: string };

type FlagValue<F extends string> = F extends `${string}<${string}...>${string}`
  ? string[]
  : F extends `${string}[${string}...]${string}`
    ? string[] | true
    : F extends `${string}<${string}>${string}`
      ? string
      : F extends `${string}[${string}]${string}`
        ? string | true
        : boolean;

type ValueOf<S extends OptionSpec> = S extends { parse: (...a: never[]) => infer R }
  ? R
  : S extends { choices: readonly (infer C)[] }
    ? F<S> extends string
      ? C
      : FlagValue<S['flags']>
    : FlagValue<S['flags']>;
type F<S extends OptionSpec> = FlagValue<S['flags']>;

type AlwaysSet<S extends OptionSpec> = S extends { required: true }
  ? true
  : S extends { default: {} }
    ? true
    : S['flags'] extends `--no-${string}` | `${string}, --no-${string}`
      ? true
      : false;

/** The parsed options of an option table. */
export type OptionsOf<T extends Record<string, OptionSpec>> = {
  [K in keyof T as AlwaysSet<T[K]> extends true ? K : never]: ValueOf<T[K]>;
} & {
  [K in keyof T as AlwaysSet<T[K]> extends true ? never : K]?: ValueOf<T[K]>;
};

type ArgUsage<A extends ArgSpec> = A extends string ? A : A extends { usage: infer U } ? U : never;
type ArgValue<A extends ArgSpec> =
  ArgUsage<A> extends `<${string}...>`
    ? string[]
    : ArgUsage<A> extends `[${string}...]`
      ? string[]
      : ArgUsage<A> extends `<${string}>`
        ? string
        : A extends { default: string }
          ? string
          : string | undefined;

/** The parsed positional arguments, by name. */
export type ArgsOf<T extends Record<string, ArgSpec>> = { [K in keyof T]: ArgValue<T[K]> };

export interface RunInput<O extends Record<string, OptionSpec>, A extends Record<string, ArgSpec>> {
  options: OptionsOf<O>;
  args: ArgsOf<A>;
  cli: CliContext;
  /** The commander command (for its parent chain or its output streams). */
  command: Command;
}

export interface CommandDefinition<
  O extends Record<string, OptionSpec> = Record<string, OptionSpec>,
  A extends Record<string, ArgSpec> = Record<string, ArgSpec>,
> {
  name: string;
  /** The line `--help` shows for the command. */
  summary: string;
  /** Positional arguments, in order. */
  args?: A;
  options?: O;
  aliases?: readonly string[];
  /** Sub-commands (`emulator clock freeze`); the command itself runs `run` when given. */
  commands?: readonly AnyCommandDefinition[];
  /** What commander's table cannot say (help text after, unknown options, ...). */
  configure?: (command: Command, cli: CliContext) => void;
  run?: (input: RunInput<O, A>) => unknown;
}

// biome-ignore lint/suspicious/noExplicitAny: a list of definitions of any option table
export type AnyCommandDefinition = CommandDefinition<any, any>;

/** A typed command definition (identity; the `const` parameters keep the flags' literal types). */
export function defineCommand<
  const O extends Record<string, OptionSpec> = {},
  const A extends Record<string, ArgSpec> = {},
>(def: CommandDefinition<O, A>): CommandDefinition<O, A> {
  return def;
}

/** Commander's attribute name of a flags string (`--top-n <n>` -> `topN`, `--no-open` -> `open`). */
function attributeOf(option: InstanceType<typeof Option>): string {
  return option.attributeName();
}

/** Build the commander option of one table row. */
export function optionOf(key: string, spec: OptionSpec): InstanceType<typeof Option> {
  const o = new Option(spec.flags, spec.description);
  if (attributeOf(o) !== key)
    throw new Error(`option ${spec.flags} must be keyed ${attributeOf(o)} (got ${key})`);
  if (spec.parse) o.argParser(spec.parse as (v: string, p: unknown) => unknown);
  if (spec.choices) o.choices(spec.choices);
  if (spec.default !== undefined) o.default(spec.default, spec.defaultDescription);
  if (spec.required) o.makeOptionMandatory();
  if (spec.hidden) o.hideHelp();
  if (spec.conflicts) o.conflicts(spec.conflicts as string | string[]);
  if (spec.helpGroup) o.helpGroup(spec.helpGroup);
  return o;
}

/**
 * Add a definition under `parent` (replacing nothing: a generated verb of the same name is
 * skipped by src/cli/generated.ts). Returns the commander command.
 */
export function addCommand(parent: Command, def: AnyCommandDefinition, cli: CliContext): Command {
  const cmd = parent.command(def.name).description(def.summary);
  for (const a of def.aliases ?? []) cmd.alias(a);
  const argNames = Object.keys(def.args ?? {});
  for (const spec of Object.values(def.args ?? {}) as ArgSpec[]) {
    if (typeof spec === 'string') cmd.argument(spec);
    else cmd.argument(spec.usage, spec.description ?? '', spec.default);
  }
  for (const [key, spec] of Object.entries(def.options ?? {}) as [string, OptionSpec][])
    cmd.addOption(optionOf(key, spec));
  def.configure?.(cmd, cli);
  for (const sub of def.commands ?? []) addCommand(cmd, sub, cli);
  const run = def.run;
  if (run) {
    cmd.action(async (...values: unknown[]) => {
      const args = Object.fromEntries(argNames.map((n, i) => [n, values[i]])) as never;
      await run({ options: cmd.opts(), args, cli, command: cmd });
    });
  }
  return cmd;
}

/** The group command `name` under the program: the one already there, or a new one. */
export function groupCommand(program: Command, name: string, description: string): Command {
  return (
    (program.commands.find((c) => c.name() === name) as Command | undefined) ??
    program.command(name).description(description)
  );
}

/**
 * A top-level word of `avatar` and what adds its commands. A folder under src/cli/ exports
 * `groups` from its index.ts; the registry (src/cli/groups.ts) is derived from those exports
 * (by `npm run build` into dist/cli/command-groups.json), so `avatar --help` lists the groups
 * without loading any command. The group that owns a word gives `section`, `rank` and
 * `description`; another folder may add commands to it with `{ name, commands }` only
 * (live/ adds `sessions live`).
 */
export interface GroupDefinition {
  name: string;
  /** Its heading in `avatar --help` (SECTIONS in groups.ts). */
  section?: string;
  /** Its place in `avatar --help` (ascending, across sections' groups). */
  rank?: number;
  /** One line for `avatar --help`. */
  description?: string;
  /** The command needs the whole tree (`avatar completion`): every group is loaded too. */
  wholeTree?: boolean;
  /**
   * What adds the commands: definitions (a definition named like the group is the group
   * word itself, `avatar rerank QUERY DOC...`; others are its verbs), or a module whose
   * `register(program, cli)` adds them by hand.
   */
  commands?: readonly (
    | AnyCommandDefinition
    | { register(program: Command, cli: CliContext): void }
  )[];
}

export const defineGroup = (g: GroupDefinition): GroupDefinition => g;

/** Register one group definition's commands on the program. */
export function registerGroup(
  program: Command,
  g: GroupDefinition,
  cli: CliContext,
  done: Set<unknown>,
): void {
  for (const c of g.commands ?? []) {
    if (done.has(c)) continue;
    done.add(c);
    if ('register' in c) c.register(program, cli);
    else if (c.name === g.name) addCommand(program, c, cli);
    else addCommand(groupCommand(program, g.name, g.description ?? ''), c, cli);
  }
}
