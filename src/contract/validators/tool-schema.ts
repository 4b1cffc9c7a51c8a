/**
 * Checks on a tool's `input_schema` (spec 2 "Tool definition"): root type object, at most
 * 2,048 serialized bytes, depth at most 4, no `$ref`/`$defs`.
 *
 * Depth (ours; the spec gives the limit, not the measure): the nesting of subschemas. The
 * root schema is depth 1; every subschema position (`properties.*`, `items`,
 * `additionalProperties`, `anyOf[*]`, ...) adds one. So `{type: object, properties: {a:
 * {type: object, properties: {b: {type: string}}}}}` has depth 3. Property *names* are not
 * keywords: a property called `$ref` is fine, a `$ref` keyword anywhere is not.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { isPlainObject } from './result.js';

/** Keywords whose value is one subschema. */
const SINGLE = [
  'additionalProperties',
  'items',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'additionalItems',
];
/** Keywords whose value is an array of subschemas. */
const ARRAY = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Keywords whose value maps names to subschemas. */
const MAP = ['properties', 'patternProperties', 'dependentSchemas'];
/** Reference keywords the service does not resolve (spec 2: no `$ref` or `$defs`). */
const REFERENCES = ['$ref', '$defs', '$dynamicRef', 'definitions'];

function children(schema: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  for (const k of SINGLE)
    if (k in schema)
      out.push(...(Array.isArray(schema[k]) ? (schema[k] as unknown[]) : [schema[k]]));
  for (const k of ARRAY) if (Array.isArray(schema[k])) out.push(...(schema[k] as unknown[]));
  for (const k of MAP)
    if (isPlainObject(schema[k])) out.push(...Object.values(schema[k] as object));
  return out.filter(isPlainObject);
}

/** Subschema nesting depth (root = 1). Stops counting past `cap` so hostile input stays cheap. */
export function schemaDepth(schema: Record<string, unknown>, cap = 64): number {
  let max = 1;
  const walk = (node: Record<string, unknown>, depth: number) => {
    if (depth > max) max = depth;
    if (depth >= cap) return;
    for (const c of children(node)) walk(c as Record<string, unknown>, depth + 1);
  };
  walk(schema, 1);
  return max;
}

/** Does any subschema use a reference keyword? */
export function schemaUsesRef(schema: Record<string, unknown>, cap = 64): boolean {
  const walk = (node: Record<string, unknown>, depth: number): boolean => {
    if (REFERENCES.some((k) => k in node)) return true;
    if (depth >= cap) return false;
    return children(node).some((c) => walk(c as Record<string, unknown>, depth + 1));
  };
  return walk(schema, 1);
}

/** Spec 2: the root must be `type: "object"` (a JSON object with that type). */
export function schemaRootIsObject(schema: unknown): schema is Record<string, unknown> {
  return isPlainObject(schema) && schema.type === 'object';
}

let ajv: Ajv2020 | null = null;

/**
 * Is the schema itself valid JSON Schema (draft 2020-12, checked against the meta-schema by
 * ajv, and compilable)? `{ "type": "strnig" }` and `"required": "a"` are not. Returns the
 * first problem (`/properties/a/type: must be equal to one of the allowed values`) or null.
 */
export function schemaProblem(schema: Record<string, unknown>): string | null {
  ajv ??= new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  if (!ajv.validateSchema(schema)) {
    const e = ajv.errors?.[0];
    return e ? `${e.instancePath || '/'}: ${e.message ?? 'invalid'}` : 'invalid schema';
  }
  try {
    ajv.compile(schema);
  } catch (err) {
    return (err as Error).message.slice(0, 200);
  }
  return null;
}
