/**
 * Reading conversation scripts (docs/testing.md "Conversation scripts"): YAML or JSON text
 * holding one script or `{ scripts: [...] }` (contract/resources/script.ts), checked against
 * the contract with every problem named `file:line: field: message`, never a crash: text
 * that is not YAML, an unknown field, an unknown step, a bad regular expression (compiled
 * with the `i` flag, as the box compiles it), a name given twice, and (with the tools the
 * emulator knows) a `tool` step naming a tool that is not a built-in tool, a tool of a
 * registered MCP server, or one of the script's own `tools`.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  Script,
  ScriptList,
  ScriptStepKinds,
  type Script as ScriptT,
} from '../../contract/resources/script.js';
import { locatedIssue, parseLocated, type Path } from '../seed/located.js';

/** A script that cannot be loaded; `message` is `file:line: field: reason`. */
export class ScriptError extends Error {
  constructor(
    message: string,
    /** The field (`rules.0.then.1.tool`), when the problem is one field's. */
    readonly field?: string,
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'ScriptError';
  }
}

/** A script as read, with where it came from (for messages and `GET /_emulator/scripts`). */
export interface ReadScript {
  script: ScriptT;
  /** Its path in the document it was read from (`[]`, or `['scripts', 2]`, `['scripts', 0]` of a seed). */
  path: Path;
  /** `file:line` of a path in that document. */
  at: (path: Path) => string;
  /** Where it came from, as listed: a file, `seed FILE`, `request`. */
  source: string;
}

const fail = (at: (p: Path) => string, path: Path, reason: string): ScriptError => {
  const field = path.length ? path.join('.') : '(top level)';
  return new ScriptError(`${at(path)}: ${field}: ${reason}`, field, reason);
};

/**
 * A step names its kind by its one key (`say`, `tool`, `wait_ms`, `fail`, `end`): one with
 * none or two of them is an unknown step, said as such (zod alone says "Invalid input").
 */
export function checkSteps(value: unknown, path: Path, at: (p: Path) => string): void {
  const rules = (value as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(rules)) return;
  rules.forEach((rule, i) => {
    const then = (rule as { then?: unknown } | null)?.then;
    if (!Array.isArray(then)) return;
    then.forEach((step, j) => {
      if (step === null || typeof step !== 'object' || Array.isArray(step)) return;
      const kinds = ScriptStepKinds.filter((k) => k in step);
      const p = [...path, 'rules', i, 'then', j];
      if (kinds.length === 0)
        throw fail(
          at,
          Object.keys(step).length ? [...p, Object.keys(step)[0]!] : p,
          `unknown step: a step is one of ${ScriptStepKinds.join(', ')}`,
        );
      if (kinds.length > 1)
        throw fail(at, p, `one step, one kind: this one has ${kinds.join(' and ')}`);
    });
  });
}

/**
 * The issue of the branch a value was meant for, where zod reports a union: the first
 * branch whose issues say neither that the value is of another type nor that a key it
 * needs is absent (a `tool` step with a bad `args` is a tool step's problem, not "Invalid
 * input"). Paths of the result are the whole document's.
 */
export function unionIssue(issue: z.core.$ZodIssue, root: unknown): z.core.$ZodIssue {
  let cur = issue;
  while (cur.code === 'invalid_union' && cur.errors.length > 0) {
    let v: unknown = root;
    for (const k of cur.path) v = (v as Record<PropertyKey, unknown> | null)?.[k as PropertyKey];
    const lacks = (k: PropertyKey) => v === null || typeof v !== 'object' || !(k in v);
    const branch = cur.errors.find(
      (issues) =>
        issues.length > 0 &&
        issues.every(
          (i) =>
            !(
              i.code === 'invalid_type' &&
              (i.path.length === 0 || (i.path.length === 1 && lacks(i.path[0]!)))
            ),
        ),
    );
    if (!branch) break;
    const next = branch[0]!;
    cur = { ...next, path: [...cur.path, ...next.path] } as z.core.$ZodIssue;
  }
  return cur;
}

/** The first problem of a zod parse, located (unions resolved to the branch meant). */
export function scriptIssue(
  error: z.ZodError,
  value: unknown,
  at: (p: Path) => string,
  noun = 'script',
): ScriptError {
  // An unknown key ("than" for "then") says more than the required key it left missing.
  const first = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0]!;
  const l = locatedIssue(unionIssue(first, value), value, at, noun);
  return new ScriptError(l.text, l.field, l.reason);
}

/** Scripts from YAML or JSON text (`file` names it in messages); throws a ScriptError. */
export function parseScripts(text: string, file: string, source = file): ReadScript[] {
  const { value, at } = parseLocated(text, file, (m) => new ScriptError(m));
  const list =
    value !== null && typeof value === 'object' && !Array.isArray(value) && 'scripts' in value;
  if (list) {
    const items = (value as { scripts: unknown }).scripts;
    if (Array.isArray(items)) items.forEach((s, i) => checkSteps(s, ['scripts', i], at));
  } else checkSteps(value, [], at);
  const r = (list ? ScriptList : Script).safeParse(value);
  if (!r.success) throw scriptIssue(r.error, value, at);
  const scripts = list ? (r.data as ScriptList).scripts : [r.data as ScriptT];
  const read = scripts.map((script, i) => ({
    script,
    path: list ? ['scripts', i] : [],
    at,
    source,
  }));
  uniqueNames(read);
  return read;
}

/** A script file, read; throws a ScriptError naming the file. */
export function readScriptFile(file: string, source = file): ReadScript[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ScriptError(`${file}: cannot read the script file: ${(e as Error).message}`);
  }
  return parseScripts(text, file, source);
}

/** One load names each script once (loading a name again later replaces it). */
export function uniqueNames(read: readonly ReadScript[]): void {
  const seen = new Map<string, ReadScript>();
  for (const r of read) {
    const first = seen.get(r.script.name);
    if (first)
      throw fail(
        r.at,
        [...r.path, 'name'],
        `"${r.script.name}" is loaded twice here (also at ${first.at([...first.path, 'name'])})`,
      );
    seen.set(r.script.name, r);
  }
}

/**
 * Every `tool` step names a tool the emulator knows (`known`: built-in tools and the tools
 * of registered MCP servers) or one of its script's `tools` (hook tools sent at mint).
 */
export function checkTools(read: readonly ReadScript[], known: (name: string) => boolean): void {
  for (const r of read)
    r.script.rules.forEach((rule, i) =>
      rule.then.forEach((step, j) => {
        if (!('tool' in step)) return;
        if (known(step.tool) || r.script.tools.includes(step.tool)) return;
        throw fail(
          r.at,
          [...r.path, 'rules', i, 'then', j, 'tool'],
          `unknown tool "${step.tool}": not a built-in tool, a tool of a registered MCP server, or one of the script's tools`,
        );
      }),
    );
}
