import { fillPath, pathParamNames, type AnyOperation } from '../../src/contract/operation.js';

/** A concrete URL path for an operation: `{wsId}` is the given workspace, other ids are fresh UUIDs. */
export function samplePath(op: AnyOperation, wsId: string): string {
  const params: Record<string, string> = {};
  for (const p of pathParamNames(op.path)) {
    const schema = op.params?.shape[p] as
      | { safeParse(v: unknown): { success: boolean } }
      | undefined;
    const uuid = crypto.randomUUID();
    params[p] = p === 'wsId' ? wsId : schema && !schema.safeParse(uuid).success ? 'ava' : uuid;
  }
  return fillPath(op.path, params);
}
