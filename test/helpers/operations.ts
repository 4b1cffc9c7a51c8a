import { fillPath, pathParamNames, type AnyOperation } from '../../src/contract/operation.js';

/** A concrete URL path for an operation: `{wsId}` is the given workspace, other ids are fresh UUIDs. */
export function samplePath(op: AnyOperation, wsId: string): string {
  const params: Record<string, string> = {};
  for (const p of pathParamNames(op.path)) {
    const schema = op.params?.shape[p] as
      | { safeParse(v: unknown): { success: boolean }; options?: readonly unknown[] }
      | undefined;
    const uuid = crypto.randomUUID();
    // An enum (a trigger's name) takes its first value; other ids that are not uuids, a persona.
    const first = schema?.options?.[0];
    params[p] =
      p === 'wsId'
        ? wsId
        : typeof first === 'string'
          ? first
          : schema && !schema.safeParse(uuid).success
            ? 'ava'
            : uuid;
  }
  return fillPath(op.path, params);
}
