import { z } from 'zod';
import { named } from '../registry.js';
import { UnixSeconds, Uuid } from './common.js';

export const DevicePlatform = z.enum(['ios', 'android', 'other']);

export const DeviceSchema = named(
  'Device',
  z.object({
    id: Uuid,
    workspace_id: z.string(),
    name: z.string(),
    platform: DevicePlatform,
    status: z.enum(['active', 'revoked']),
    created_at: UnixSeconds,
    last_seen_at: UnixSeconds.nullable().optional(),
    revoked_at: UnixSeconds.nullable().optional(),
  }),
);

export const CreatedDeviceSchema = named(
  'CreatedDevice',
  z.object({ device: DeviceSchema, token: z.string().describe('dt_ credential, returned once') }),
);

export const RotatedDeviceTokenSchema = named(
  'RotatedDeviceToken',
  z.object({ token: z.string(), rotated_at: UnixSeconds }),
);

export const CreateDeviceBody = z.object({
  name: z.string().min(1),
  platform: DevicePlatform.default('other'),
});
