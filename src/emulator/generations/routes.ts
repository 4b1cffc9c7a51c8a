/**
 * The generation routes (spec 4.10) and their operator switch. One call from app.ts.
 */
import { design, prebuild, speak } from '../../contract/operations/generations.js';
import {
  generationFaults,
  generations,
  generationVoices,
} from '../../contract/operations/operator.js';
import type { App, EmulatorContext } from '../context.js';
import { implement, reply } from '../http/router.js';
import { runDesign } from './design.js';
import { runPrebuild } from './prebuild.js';
import { runSpeak } from './speak.js';
import { generationState } from './state.js';

export function registerGenerations(app: App, ctx: EmulatorContext): void {
  implement(app, ctx, speak, async ({ auth, raw }) => {
    const r = await runSpeak(ctx, auth, raw);
    return new Response(new Uint8Array(r.mp4), {
      status: 200,
      headers: { ...r.headers, 'Content-Length': String(r.mp4.length) },
    });
  });
  implement(app, ctx, design, ({ raw }) => runDesign(ctx, raw));
  implement(app, ctx, prebuild, async ({ auth, body }) =>
    reply(202, await runPrebuild(ctx, auth, body.avatar_ref)),
  );

  // Operator fault injection (ours, /_emulator/): the next `count` speak/design renders
  // fail at `stage` (502 render_failed); `{"stage": null}` clears it.
  implement(app, ctx, generationFaults, ({ body }) => {
    const s = generationState(ctx);
    s.fault = body.stage ? { stage: body.stage, remaining: body.count ?? 1 } : null;
    return { ok: true, fault: s.fault };
  });
  // What the service keeps per voice reference (ours): measured shape and transcript.
  implement(app, ctx, generationVoices, () => {
    const s = generationState(ctx);
    return {
      // least recently used first, as they go when the cache is full
      data: [...s.voices.rkeys()]
        .map((key) => [key, s.voices.peek(key)!] as const)
        .map(([key, v]) => ({
          voice: key.slice(0, 16),
          pitch_hz: v.shape.pitchHz ?? null,
          rate: v.shape.rate ?? null,
          seconds: Math.round(v.seconds * 100) / 100,
          transcript: s.transcripts.peek(key) ?? null,
        })),
    };
  });
  implement(app, ctx, generations, () => {
    const s = generationState(ctx);
    return {
      render_cells: s.opts.renderCells,
      allow_remote_media: s.opts.allowRemoteMedia,
      cells_in_use: Object.fromEntries(sessionBoxes(ctx).map((id) => [id, s.cells.inUse(id)])),
      fault: s.fault,
    };
  });
}

function sessionBoxes(ctx: EmulatorContext): string[] {
  return generationState(ctx).cells.boxIds();
}
