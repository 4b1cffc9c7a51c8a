/**
 * The deterministic tool verdict (the local brain's; docs/tools.md "The verdict rule"),
 * so a test or an app developer can make a tool fire on purpose by what they say or type.
 *
 * 1. Terms: the committed user turn and each tool's name (split on `_` and `-`) and
 *    description are lower-cased words, English stop words removed, irregular forms to
 *    their base, Porter-stemmed (the local brain's `terms`, retrieval.ts).
 * 2. Score: every distinct turn term found in the tool's name counts 2, one found only
 *    in its description counts 1. The best score wins (a tie: the earlier tool); below
 *    THRESHOLD (2: one name word, or two description words) no tool fires.
 * 3. Arguments, from the input_schema's properties by type: a property named `*id`,
 *    `*number` or `*code` takes the first word with a digit; `integer`/`number` the first
 *    number; `boolean` true unless the turn says "no"/"not"; any other string takes the
 *    words after the last of " of ", " for ", " about ", " in ", " to ", " called ",
 *    " named " (else the whole turn), without end punctuation. `enum` takes the first
 *    value the turn names, else the first value.
 */
import { terms } from './retrieval.js';

export interface VerdictTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface ToolVerdict {
  tool: string;
  args: Record<string, unknown>;
}

export const THRESHOLD = 2;

/** The brain's terms (retrieval.ts: the one tokeniser and stemmer), one-letter ones left out. */
function termSet(text: string): Set<string> {
  return new Set(terms(text).filter((t) => t.length >= 2));
}

export function scoreTool(turn: string, tool: VerdictTool): number {
  const t = termSet(turn);
  const name = termSet(tool.name.replace(/[_-]+/g, ' '));
  const desc = termSet(tool.description);
  let score = 0;
  for (const w of t) score += name.has(w) ? 2 : desc.has(w) ? 1 : 0;
  return score;
}

const CUES = [' of ', ' for ', ' about ', ' in ', ' to ', ' called ', ' named '];

function tailText(turn: string): string {
  const lower = turn.toLowerCase();
  let at = -1;
  let len = 0;
  for (const c of CUES) {
    const i = lower.lastIndexOf(c);
    if (i > at) {
      at = i;
      len = c.length;
    }
  }
  const tail = at >= 0 ? turn.slice(at + len) : turn;
  return (
    tail
      .trim()
      .replace(/[.!?。！？]+$/u, '')
      .trim() || turn.trim()
  );
}

export function fillArgs(turn: string, schema: Record<string, unknown>): Record<string, unknown> {
  const props =
    schema.properties && typeof schema.properties === 'object'
      ? (schema.properties as Record<string, Record<string, unknown>>)
      : {};
  const out: Record<string, unknown> = {};
  for (const [key, p] of Object.entries(props)) {
    if (!p || typeof p !== 'object') continue;
    const type = Array.isArray(p.type) ? p.type[0] : p.type;
    if (Array.isArray(p.enum) && p.enum.length > 0) {
      const lower = turn.toLowerCase();
      out[key] =
        p.enum.find((v) => typeof v === 'string' && lower.includes(v.toLowerCase())) ?? p.enum[0];
    } else if (type === 'integer' || type === 'number') {
      const m = /-?\d+(?:\.\d+)?/.exec(turn);
      if (m) out[key] = type === 'integer' ? Math.trunc(Number(m[0])) : Number(m[0]);
    } else if (type === 'boolean') {
      out[key] = !/\b(no|not|don't|never)\b/i.test(turn);
    } else if (type === 'string' || type === undefined) {
      if (/(id|number|code)$/i.test(key)) {
        const m = /[\p{L}\p{N}-]*\d[\p{L}\p{N}-]*/u.exec(turn);
        if (m) out[key] = m[0];
        else out[key] = tailText(turn);
      } else {
        out[key] = tailText(turn);
      }
    }
  }
  return out;
}

/** The tool this turn asks for, with its arguments, or null. */
export function deterministicVerdict(
  turn: string,
  tools: readonly VerdictTool[],
): ToolVerdict | null {
  let best: VerdictTool | null = null;
  let bestScore = 0;
  for (const t of tools) {
    const s = scoreTool(turn, t);
    if (s > bestScore) {
      best = t;
      bestScore = s;
    }
  }
  if (!best || bestScore < THRESHOLD) return null;
  return { tool: best.name, args: fillArgs(turn, best.input_schema) };
}
