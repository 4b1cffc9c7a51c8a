import { isMap, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { issueMessage } from '../inference/shared/issues.js';

/**
 * YAML (or JSON, which YAML reads too) with the line of every node: the seed file and
 * conversation scripts are read with it, so each of their errors names `file:line: field`.
 */
export type Path = (string | number)[];

export interface Located {
  /** The document as plain values. */
  value: unknown;
  /** `file:line` of the node at `path` (or of its nearest ancestor present). */
  at(path: Path): string;
}

/** Parse `text` (named `file` in messages); `fail` makes the error thrown for text that is not YAML. */
export function parseLocated(
  text: string,
  file: string,
  fail: (message: string) => Error,
): Located {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false }) as Document.Parsed;
  const lineOf = (pos: number) => lines.linePos(pos).line;
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    throw fail(`${file}:${lineOf(e.pos[0])}: not valid YAML or JSON: ${e.message.split('\n')[0]}`);
  }
  const at = (path: Path): string => {
    // A key of a map is named where the key is written (its value may start on the next line).
    const key = path.at(-1);
    if (typeof key === 'string') {
      const parent = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1), true);
      const pair = isMap(parent)
        ? parent.items.find((i) => isScalar(i.key) && i.key.value === key)
        : undefined;
      const range = isScalar(pair?.key) ? pair.key.range : undefined;
      if (range) return `${file}:${lineOf(range[0])}`;
    }
    for (let p = [...path]; ; p = p.slice(0, -1)) {
      const node =
        p.length === 0
          ? doc.contents
          : (doc.getIn(p, true) as { range?: [number, number, number] } | undefined);
      const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
      if (range) return `${file}:${lineOf(range[0])}`;
      if (p.length === 0) return `${file}:1`;
    }
  };
  let value: unknown;
  try {
    // A document whose aliases expand beyond the yaml package's bound (an alias bomb) is refused.
    value = doc.toJS() ?? {};
  } catch (e) {
    throw fail(`${file}:1: not valid YAML or JSON: ${(e as Error).message}`);
  }
  return { value, at };
}

/**
 * Where the first problem of a zod parse is and what it is (`at: field: reason` in a
 * message); an unknown key is named as a field of its own ("is not a <noun> field").
 */
export function locatedIssue(
  issue: z.core.$ZodIssue,
  value: unknown,
  at: (path: Path) => string,
  noun: string,
): { at: string; field: string; reason: string; text: string } {
  const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
  const path = (keys.length ? [...issue.path, keys[0]!] : issue.path) as Path;
  const field = path.length ? path.join('.') : '(top level)';
  const reason = keys.length ? `is not a ${noun} field` : issueMessage(issue, value);
  const where = at(path);
  return { at: where, field, reason, text: `${where}: ${field}: ${reason}` };
}
