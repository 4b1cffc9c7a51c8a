/**
 * Built-in tool servers (spec 4.11): `svc.image` provides `generate_image` and
 * `edit_avatar`. The box runs built-in tools itself (the gateway answers
 * `builtin_tool_is_local`), so their definitions are data shared by the control plane
 * (mint-time resolution) and the box (the verdict and the run). Descriptions and schemas
 * are ours (docs/fidelity.md "Tools").
 */
import type { ToolDefinition } from './validators/tools.js';

/** A built-in tool: a tool definition (spec 2) the box runs itself. */
export type BuiltinToolDef = ToolDefinition;

export const BUILTIN_SERVERS: Record<string, BuiltinToolDef[]> = {
  'svc.image': [
    {
      name: 'generate_image',
      description:
        'Generate, draw, create or make a picture, image, drawing or illustration of something and show it.',
      input_schema: {
        type: 'object',
        properties: { prompt: { type: 'string', description: 'what to draw' } },
        required: ['prompt'],
      },
      timeout_ms: 8000,
      idempotent: true,
      fast: false,
      cover_line: 'Let me draw that for you.',
    },
    {
      name: 'edit_avatar',
      description:
        'Edit, change or restyle the avatar picture: your own look, portrait or appearance.',
      input_schema: {
        type: 'object',
        properties: { instruction: { type: 'string', description: 'how to change the picture' } },
        required: ['instruction'],
      },
      timeout_ms: 8000,
      idempotent: true,
      fast: false,
      cover_line: 'Give me a moment to restyle my picture.',
    },
  ],
};

/** A built-in key (`svc.image`) rather than a registry id (`mcps_...`). */
export const isBuiltinKey = (s: string): boolean => !s.startsWith('mcps_');

/** spec 8: built-in image URLs expire after one hour. */
export const BUILTIN_IMAGE_TTL_MS = 3_600_000;
