import { unixSeconds } from '../../clock.js';
import type { EmulatorContext } from '../../context.js';
import type { RequestClass } from '../rate-limit/limiter.js';
import type { InferenceCaller } from './caller.js';
import { inferenceSql } from './sql.js';

/** What one request used; handlers fill it in. */
export interface UsageNote {
  modelId?: string;
  promptTokens?: number;
  completionTokens?: number;
  audioSeconds?: number;
  images?: number;
  /** A streamed answer records itself when the stream ends (`finish`). */
  deferred: boolean;
  finish?: () => void;
}

/** One row per inference request, aggregated by GET /api/organizations/{orgId}/usage. */
export class UsageRecorder {
  constructor(private readonly ctx: EmulatorContext) {}

  record(
    caller: InferenceCaller,
    kind: RequestClass,
    route: string,
    status: number,
    note: UsageNote,
  ): void {
    const write = () =>
      inferenceSql(this.ctx.db).insertInferenceUsage.run(
        caller.orgId,
        caller.keyId,
        unixSeconds(this.ctx.clock),
        kind,
        route,
        note.modelId ?? null,
        status,
        note.promptTokens ?? 0,
        note.completionTokens ?? 0,
        note.audioSeconds ?? 0,
        note.images ?? 0,
      );
    if (note.deferred) note.finish = write;
    else write();
  }
}
