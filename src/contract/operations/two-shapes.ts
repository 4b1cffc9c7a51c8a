/**
 * Avatar, voice and profile routes exist in two shapes (spec 4): token-relative
 * (`/api/v1/avatars/...`, workspace from the key) and explicit
 * (`/api/v1/workspaces/{wsId}/avatars/...`). One definition gives both operations; the
 * explicit one has the id `<group>.<verb>.ws` and no generated CLI command (the CLI uses
 * the token-relative one).
 */
import { z } from 'zod';
import {
  defineOperation,
  type Operation,
  type OperationAuth,
  type RawBodySpec,
  type Responses,
} from '../operation.js';
import { WorkspaceRef } from '../resources/avatar.js';

export interface TwoShapeDef<
  S extends z.ZodRawShape,
  Q extends z.ZodObject,
  B extends z.ZodType,
  R extends Responses = Responses,
> {
  /** `<group>.<verb>` of the token-relative operation. */
  id: string;
  method: Operation['method'];
  /** Path after `/api/v1` (token-relative) or after `/api/v1/workspaces/{wsId}` (explicit). */
  rel: string;
  summary: string;
  description?: string;
  auth: OperationAuth;
  params?: S;
  query?: Q;
  body?: B;
  rawBody?: RawBodySpec;
  responses: R;
  cli?: { group: string; verb: string } | false;
}

/** Generic over the responses too, so OutputOf reads both operations' literal schemas. */
export function twoShapes<
  S extends z.ZodRawShape,
  Q extends z.ZodObject,
  B extends z.ZodType,
  const R extends Responses,
>(def: TwoShapeDef<S, Q, B, R>) {
  const { rel, params, cli, ...rest } = def;
  const token = defineOperation({
    ...rest,
    path: `/api/v1${rel}`,
    params: z.object({ ...(params ?? ({} as S)) }),
    cli: cli ?? false,
  });
  const explicit = defineOperation({
    ...rest,
    id: `${def.id}.ws`,
    path: `/api/v1/workspaces/{wsId}${rel}`,
    params: z.object({ wsId: WorkspaceRef, ...(params ?? ({} as S)) }),
    cli: false,
  });
  return [token, explicit] as const;
}
