import type { z } from 'zod';
import { withDocs } from './flag-docs.js';
import type { FieldFlag, FlagKind } from './field-flag.js';
import { readData } from './read-data.js';

export type { FieldFlag, FlagKind } from './field-flag.js';

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string>;
  options?: z.ZodType[];
  values?: unknown[];
}

const def = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Strip optional/default/nullable/pipe wrappers. */
export function unwrap(s: z.ZodType): z.ZodType {
  let cur = s;
  for (let i = 0; i < 10; i++) {
    const d = def(cur);
    if (
      ['optional', 'default', 'nullable', 'prefault', 'readonly', 'catch'].includes(d.type) &&
      d.innerType
    )
      cur = d.innerType;
    else if (d.type === 'pipe' && d.in) cur = d.in;
    else break;
  }
  return cur;
}

function kindOf(s: z.ZodType): { kind: FlagKind; choices?: string[]; item?: 'string' | 'number' } {
  const d = def(unwrap(s));
  switch (d.type) {
    case 'string':
      return { kind: 'string' };
    case 'number':
    case 'int':
    case 'bigint':
      return { kind: 'number' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'enum':
      return { kind: 'string', choices: Object.values(d.entries ?? {}) };
    case 'literal':
      return { kind: 'string', choices: (d.values ?? []).map(String) };
    case 'array': {
      const el = d.element ? def(unwrap(d.element)).type : 'unknown';
      if (el === 'number' || el === 'int') return { kind: 'list', item: 'number' };
      return el === 'string' || el === 'enum' ? { kind: 'list', item: 'string' } : { kind: 'json' };
    }
    default:
      return { kind: 'json' };
  }
}

export const kebab = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[_.]/g, '-')
    .toLowerCase();

/** The top-level fields of an object schema as CLI flags. */
export function flagsOf(schema: z.ZodType | undefined): FieldFlag[] {
  if (!schema) return [];
  const obj = unwrap(schema) as unknown as { shape?: Record<string, z.ZodType> };
  if (!obj.shape) return [];
  return Object.entries(obj.shape).map(([field, s]) => {
    const { kind, choices, item } = kindOf(s);
    const inner = unwrap(s) as unknown as { minLength?: number | null; maxLength?: number | null };
    const lengths =
      kind === 'string' && !choices
        ? { minLength: inner.minLength ?? undefined, maxLength: inner.maxLength ?? undefined }
        : {};
    const description = (s as unknown as { description?: string }).description ?? '';
    return withDocs({
      field,
      flag: kebab(field),
      kind,
      ...(item ? { item } : {}),
      required: !s.safeParse(undefined).success,
      description,
      choices,
      ...lengths,
    });
  });
}

/** Parse one flag's string value(s) into the API's type. */
export function coerce(flag: FieldFlag, raw: unknown, cwd = process.cwd()): unknown {
  switch (flag.kind) {
    case 'number': {
      const n = String(raw).trim() === '' ? NaN : Number(raw);
      if (!Number.isFinite(n)) throw new Error(`--${flag.flag} takes a number, got ${String(raw)}`);
      return n;
    }
    case 'boolean':
      return Boolean(raw);
    case 'list': {
      const items = (Array.isArray(raw) ? raw : [raw])
        .flatMap((v) => String(v).split(','))
        .map((v) => v.trim())
        .filter(Boolean);
      if (flag.item !== 'number') return items;
      return items.map((v) => {
        const n = Number(v);
        if (!Number.isFinite(n)) throw new Error(`--${flag.flag} takes numbers, got ${v}`);
        return n;
      });
    }
    case 'json': {
      // Object flags take inline JSON or @file (`--tools-json @tools.json`), like --data.
      const text = String(raw);
      if (text.startsWith('@')) return readData(text, cwd, `--${flag.flag}`);
      try {
        return JSON.parse(text);
      } catch {
        throw new Error(
          `--${flag.flag} takes JSON (inline, or @file), got ${text.length > 40 ? text.slice(0, 40) + '…' : text}`,
        );
      }
    }
    default:
      return String(raw);
  }
}
