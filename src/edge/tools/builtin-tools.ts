/**
 * The built-in server `svc.image` (spec 4.11), run on the box (the gateway answers
 * `builtin_tool_is_local`): `generate_image` draws the prompt with the local procedural
 * image model (src/models/image), `edit_avatar` paints the instruction over the avatar's
 * procedural portrait. Pictures are served by the box at an unguessable URL that expires
 * after one hour (spec 8), judged on the box's clock.
 */
import { randomBytes } from 'node:crypto';
import { BUILTIN_IMAGE_TTL_MS } from '../../contract/builtins.js';
import { editPng, generatePng, renderPicture } from '../../models/image/procedural.js';
import { type Clock } from '../../contract/clock.js';
import type { StageAnswer } from './tool-stage.js';

export const IMAGE_SIDE = 384;

/** Pictures this box made, by id, until they expire. */
export class ImageShelf {
  private readonly images = new Map<string, { png: Buffer; expiresAt: number }>();
  baseUrl = '';

  constructor(private readonly clock: Clock) {}

  put(png: Buffer): string {
    this.sweep();
    const id = randomBytes(16).toString('hex');
    this.images.set(id, { png, expiresAt: this.clock.now() + BUILTIN_IMAGE_TTL_MS });
    return `${this.baseUrl}/_box/images/${id}.png`;
  }

  /** The picture, or null when unknown or expired. */
  get(id: string): Buffer | null {
    const i = this.images.get(id);
    if (!i) return null;
    if (this.clock.now() >= i.expiresAt) {
      this.images.delete(id);
      return null;
    }
    return i.png;
  }

  private sweep(): void {
    const now = this.clock.now();
    for (const [id, i] of this.images) if (now >= i.expiresAt) this.images.delete(id);
  }
}

const str = (v: unknown, fallback: string) =>
  typeof v === 'string' && v.trim() ? v.trim().slice(0, 500) : fallback;

export async function runBuiltin(
  tool: string,
  args: Record<string, unknown>,
  shelf: ImageShelf,
  persona: string,
): Promise<StageAnswer> {
  if (tool === 'generate_image') {
    const prompt = str(args.prompt, 'a picture');
    const url = shelf.put(await generatePng(prompt, IMAGE_SIDE, IMAGE_SIDE));
    return { ok: true, status: 'done', result: { kind: 'image', url, caption: prompt } };
  }
  if (tool === 'edit_avatar') {
    const instruction = str(args.instruction, 'a new look');
    const base = {
      width: IMAGE_SIDE,
      height: IMAGE_SIDE,
      data: renderPicture(persona, IMAGE_SIDE, IMAGE_SIDE),
    };
    const url = shelf.put(await editPng(base, null, instruction));
    return {
      ok: true,
      status: 'done',
      result: { kind: 'image', url, caption: `${persona}, ${instruction}` },
    };
  }
  return { ok: false, error: 'unknown_tool', message: `no built-in tool named ${tool}` };
}
