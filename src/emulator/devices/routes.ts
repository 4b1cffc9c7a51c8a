import {
  createDevice,
  listDevices,
  revokeDevice,
  rotateDevice,
} from '../../contract/operations/core.js';
import { CONNECT_ONLY } from '../../contract/scopes.js';
import { mintKey } from '../auth/credentials.js';
import { workspaceFromPath } from '../auth/workspace.js';
import { unixSeconds } from '../clock.js';
import type { App, EmulatorContext } from '../context.js';
import { ApiError } from '../../server/api-error.js';
import { implement, reply } from '../http/router.js';
import { insertKey } from '../tokens/store.js';
import { tokenSql } from '../tokens/sql.js';
import { deviceSql } from './sql.js';

interface DeviceRow {
  id: string;
  workspace_id: string;
  name: string;
  platform: 'ios' | 'android' | 'other';
  status: 'active' | 'revoked';
  created_at: number;
  last_seen_at: number | null;
  revoked_at: number | null;
}

const toDevice = (r: DeviceRow) => ({
  id: r.id,
  workspace_id: r.workspace_id,
  name: r.name,
  platform: r.platform,
  status: r.status,
  created_at: r.created_at,
  last_seen_at: r.last_seen_at,
  revoked_at: r.revoked_at,
});

export function registerDevices(app: App, ctx: EmulatorContext): void {
  const { db } = ctx;
  const findDevice = (wsId: string, deviceId: string) => {
    const d = deviceSql(db).getDevicesByIdAndWorkspaceId.get(deviceId, wsId) as
      | DeviceRow
      | undefined;
    if (!d) throw new ApiError(404, 'not_found', { message: `device ${deviceId} not found` });
    return d;
  };

  implement(app, ctx, listDevices, ({ auth, params }) => {
    const ws = workspaceFromPath(db, auth, params.wsId);
    const rows = deviceSql(db).listDevicesByWorkspaceId.all(ws.id);
    return { data: (rows as DeviceRow[]).map(toDevice) };
  });

  // The device credential is a `dt_` key locked to session:connect (spec 2, Device).
  implement(app, ctx, createDevice, ({ auth, params, body }) => {
    const ws = workspaceFromPath(db, auth, params.wsId);
    const id = ctx.ids.uuid();
    const now = unixSeconds(ctx.clock);
    const raw = db.transaction(() => {
      deviceSql(db).insertDevices.run(id, ws.id, body.name, body.platform, now);
      return insertKey(ctx, {
        userId: ws.owner_user_id,
        workspaceId: ws.id,
        name: `device:${body.name}`,
        kind: 'device',
        scopes: CONNECT_ONLY,
        allowedOrigins: null,
        deviceId: id,
      }).raw;
    })();
    return reply(201, { device: toDevice(findDevice(ws.id, id)), token: raw });
  });

  implement(app, ctx, rotateDevice, ({ auth, params }) => {
    const ws = workspaceFromPath(db, auth, params.wsId);
    const d = findDevice(ws.id, params.deviceId);
    if (d.status !== 'active')
      throw new ApiError(409, 'conflict', { message: 'device is revoked' });
    const now = unixSeconds(ctx.clock);
    const minted = mintKey(db, ctx.ids, 'device');
    db.transaction(() => {
      tokenSql(db).rotateDeviceKey.run(minted.lookup, minted.hash, minted.prefix, d.id);
      deviceSql(db).setDevicesRotatedAtById.run(now, d.id);
    })();
    return { token: minted.raw, rotated_at: now };
  });

  implement(app, ctx, revokeDevice, ({ auth, params }) => {
    const ws = workspaceFromPath(db, auth, params.wsId);
    const d = findDevice(ws.id, params.deviceId);
    if (d.status === 'revoked') return { ok: true as const, revoked_at: d.revoked_at! };
    const now = unixSeconds(ctx.clock);
    db.transaction(() => {
      deviceSql(db).setDevicesStatusById.run(now, d.id);
      tokenSql(db).revokeApiKeysByDeviceId.run(now, d.id);
    })();
    return { ok: true as const, revoked_at: now };
  });
}
