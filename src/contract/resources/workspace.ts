import { z } from 'zod';
import { named } from '../registry.js';
import { UnixSeconds, Uuid } from './common.js';

export const WorkspaceSchema = named(
  'Workspace',
  z.object({
    id: Uuid,
    name: z.string(),
    plan: z.string(),
    owner_user_id: Uuid,
    created_at: UnixSeconds,
    updated_at: UnixSeconds.nullable(),
  }),
);
export type Workspace = z.infer<typeof WorkspaceSchema>;

/** Plans the emulator knows (spec: values beyond `free` not shown; docs/fidelity.md). */
export const WorkspacePlans = ['free', 'pro', 'enterprise', 'demo'] as const;

export const CreateWorkspaceBody = z.object({
  name: z.string().min(1),
  plan: z.enum(WorkspacePlans).default('free'),
});

export const UpdateWorkspaceBody = z.object({ name: z.string().min(1) });
