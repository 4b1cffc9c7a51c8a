import { createIssuer, deleteIssuer, listIssuers } from '../../contract/operations/core.js';
import type { z } from 'zod';
import type { IssuerAlg } from '../../contract/resources/issuer.js';
import { workspaceFromPath } from '../auth/workspace.js';
import { unixSeconds } from '../clock.js';
import type { App, EmulatorContext } from '../context.js';
import { ApiError } from '../../server/api-error.js';
import { implement, reply } from '../http/router.js';
import { issuerSql } from './sql.js';

interface IssuerRow {
  id: string;
  workspace_id: string;
  iss: string;
  aud: string;
  jwks_uri: string;
  algs: string;
  created_at: number;
}

const toIssuer = (r: IssuerRow) => ({
  ...r,
  algs: JSON.parse(r.algs) as z.output<typeof IssuerAlg>[],
});

export function registerIssuers(app: App, ctx: EmulatorContext): void {
  const { db } = ctx;

  implement(app, ctx, listIssuers, ({ auth, params }) => {
    const ws = workspaceFromPath(db, auth, params.wsId);
    const rows = issuerSql(db).listTrustedIssuersByWorkspaceId.all(ws.id);
    return { data: (rows as IssuerRow[]).map(toIssuer) };
  });

  implement(app, ctx, createIssuer, ({ auth, params, body }) => {
    const ws = workspaceFromPath(db, auth, params.wsId);
    const dup = issuerSql(db).getTrustedIssuerIdByIssAud.get(ws.id, body.iss, body.aud);
    if (dup)
      throw new ApiError(409, 'conflict', { message: 'this iss/aud pair is already trusted' });
    const id = ctx.ids.uuid();
    issuerSql(db).insertTrustedIssuers.run(
      id,
      ws.id,
      body.iss,
      body.aud,
      body.jwks_uri,
      JSON.stringify(body.algs),
      unixSeconds(ctx.clock),
    );
    return reply(201, toIssuer(issuerSql(db).getTrustedIssuersById.get(id) as IssuerRow));
  });

  // DELETE always answers 204, like the spec's other deletes (mcp-servers, queue tickets).
  implement(app, ctx, deleteIssuer, ({ auth, params }) => {
    const ws = workspaceFromPath(db, auth, params.wsId);
    issuerSql(db).deleteTrustedIssuersByIdAndWorkspaceId.run(params.issuerId, ws.id);
    return reply(204);
  });
}
