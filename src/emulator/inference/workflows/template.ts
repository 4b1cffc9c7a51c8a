/**
 * Workflow templates (spec 4.12 "Workflow nodes"): `${input.<name>}`,
 * `${nodes.<key>.result...}`, `${item}` / `${item.field}`, and the payload array element
 * `{ $each: <array expression>, template: <object> }` that expands inline.
 *
 * A string that is exactly one expression takes the value's own type (an array stays an
 * array); an expression inside a longer string is interpolated (objects as JSON).
 */
const EXPR = /\$\{\s*([^}]*?)\s*\}/g;
const WHOLE = /^\$\{\s*([^}]*?)\s*\}$/;

export interface Scope {
  input: Record<string, unknown>;
  nodes: Record<string, { result: unknown }>;
  item?: unknown;
  hasItem?: boolean;
}

export class TemplateError extends Error {}

/** `a.b[0].c` -> ['a', 'b', '0', 'c'] */
export function pathOf(expr: string): string[] {
  if (!/^[A-Za-z_$][\w$-]*(\.[\w$-]+|\[\d+\])*$/.test(expr))
    throw new TemplateError(`malformed expression \${${expr}}`);
  return expr.replace(/\[(\d+)\]/g, '.$1').split('.');
}

function lookup(expr: string, scope: Scope): unknown {
  const [head, ...rest] = pathOf(expr);
  let v: unknown;
  if (head === 'input') v = scope.input;
  else if (head === 'nodes') v = scope.nodes;
  else if (head === 'item') {
    if (!scope.hasItem)
      throw new TemplateError(`\${${expr}} is only defined inside a map node or $each template`);
    v = scope.item;
  } else throw new TemplateError(`\${${expr}}: expressions start with input, nodes or item`);
  for (const k of rest) {
    if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, k)) {
      throw new TemplateError(`\${${expr}} does not resolve (no "${k}")`);
    }
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

export function render(value: unknown, scope: Scope): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return lookup(whole[1]!, scope);
    return value.replace(EXPR, (_, e: string) => {
      const v = lookup(e, scope);
      return typeof v === 'string' ? v : JSON.stringify(v);
    });
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const el of value) {
      if (isEach(el)) {
        const items = render(el.$each, scope);
        if (!Array.isArray(items))
          throw new TemplateError(`$each ${String(el.$each)} is not an array`);
        for (const item of items) out.push(render(el.template, { ...scope, item, hasItem: true }));
      } else out.push(render(el, scope));
    }
    return out;
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, render(v, scope)]));
  }
  return value;
}

export function isEach(el: unknown): el is { $each: unknown; template: unknown } {
  return !!el && typeof el === 'object' && !Array.isArray(el) && '$each' in el;
}

/** Every expression in a value, with whether it sits where `item` is bound. */
export function expressions(
  value: unknown,
  itemBound = false,
  out: { expr: string; itemBound: boolean; open?: true }[] = [],
) {
  if (typeof value === 'string') {
    for (const m of value.matchAll(EXPR)) out.push({ expr: m[1]!, itemBound });
    // `${` with no closing brace would otherwise go out as literal text: a typo to report.
    const rest = value.replace(EXPR, '');
    const at = rest.indexOf('${');
    if (at >= 0) out.push({ expr: rest.slice(at), itemBound, open: true });
  } else if (Array.isArray(value)) {
    for (const el of value) {
      if (isEach(el)) {
        expressions(el.$each, itemBound, out);
        expressions(el.template, true, out);
      } else expressions(el, itemBound, out);
    }
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) expressions(v, itemBound, out);
  }
  return out;
}
