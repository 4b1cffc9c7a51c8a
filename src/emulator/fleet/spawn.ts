/**
 * The in-process fleet: `startEmulator` starts `boxes` edge boxes, each its own HTTP server
 * registering over the internal box API exactly as a box in another process would. The
 * emulator only composes the edge here; the edge never imports the emulator.
 */
import { join } from 'node:path';
import { startBox, type RunningBox } from '../../edge/box/box.js';
import { defaultParts } from '../../edge/default-parts.js';
import type { EdgeParts } from '../../edge/session/parts.js';
import type { EmulatorContext } from '../context.js';
import { sessionOptions, type BoxCapabilities } from '../session-options.js';
import { fleetOf } from './fleet.js';

/**
 * The boxes this emulator starts in-process, in start order, and the parts they share
 * (`edgeParts` when given (tests), else the defaults from the flags), made for the first box.
 */
export class InProcessBoxes {
  readonly list: RunningBox[] = [];
  private partsMade: Promise<EdgeParts> | null = null;

  constructor(private readonly ctx: EmulatorContext) {}

  parts(): Promise<EdgeParts> {
    const o = this.ctx.options;
    return (this.partsMade ??= o.edgeParts
      ? Promise.resolve(o.edgeParts as EdgeParts)
      : defaultParts({
          asrUrl: (o.asrUrl as string | undefined) ?? null,
          llmUrl: (o.llmUrl as string | undefined) ?? null,
          llmModel: (o.llmModel as string | undefined) ?? null,
          llmApiKey: process.env.AVATAR_LLM_API_KEY ?? null,
          ttsUrl: (o.ttsUrl as string | undefined) ?? null,
          ttsApiKey: process.env.AVATAR_TTS_API_KEY ?? null,
          log: this.ctx.log,
        }));
  }
}

/** Boxes started by this emulator, in start order. */
export function runningBoxes(ctx: EmulatorContext): RunningBox[] {
  return ctx.services.boxes.list;
}

/**
 * Issue a box id and secret the control plane will accept. An external box's (`durable`)
 * is kept in the store, so it still registers after a restart on the same data dir; an
 * in-process box lives and dies with this start.
 */
export function issueBoxCredential(
  ctx: EmulatorContext,
  durable = false,
): { boxId: string; secret: string } {
  const boxId = `box_${ctx.ids.hex(6)}`;
  const secret = ctx.ids.hex(24);
  fleetOf(ctx).addCredential(boxId, secret, durable ? ctx.db : undefined);
  return { boxId, secret };
}

/** Start one in-process box with these capabilities (defaults: both protocols, custom avatars, verified). */
export async function addBox(
  ctx: EmulatorContext,
  caps: BoxCapabilities = {},
): Promise<RunningBox> {
  const opts = sessionOptions(ctx.options);
  const baseUrl = ctx.options.baseUrl as string;
  const { boxId, secret } = issueBoxCredential(ctx);
  const box = await startBox({
    controlPlaneUrl: baseUrl,
    boxId,
    secret,
    // It stops with this emulator: nothing to find again after a restart.
    watchControlPlane: false,
    seats: caps.seats ?? opts.seats,
    protocols: caps.protocols ?? [1, 2],
    customAvatars: caps.customAvatars ?? true,
    verified: caps.verified ?? true,
    maxCapSeconds: caps.maxCapSeconds ?? null,
    host: ctx.options.host,
    allowedHosts: ctx.options.allowedHosts,
    parts: await ctx.services.boxes.parts(),
    clock: ctx.clock,
    // spec 4.5 recording: captures live beside the blobs, where DELETE erases them.
    captureRoot: join(ctx.blobDir, 'captures'),
    log:
      (ctx.options.edgeLog as ((line: string) => void) | undefined) ??
      (ctx.options.verbose
        ? (line) => process.stderr.write(`[edge ${boxId}] ${line}\n`)
        : undefined),
  });
  ctx.services.boxes.list.push(box);
  return box;
}

/** Stop one in-process box (it deregisters; its sessions end). */
export async function removeBox(ctx: EmulatorContext, boxId: string): Promise<void> {
  const list = ctx.services.boxes.list;
  const i = list.findIndex((b) => b.id === boxId);
  if (i < 0) return;
  const [box] = list.splice(i, 1);
  await box!.stop();
}

/** Start the configured fleet and stop it with the emulator. */
export async function startFleet(ctx: EmulatorContext): Promise<void> {
  const opts = sessionOptions(ctx.options);
  ctx.onStop(async () => {
    for (const b of [...runningBoxes(ctx)].reverse()) await b.stop();
    ctx.services.boxes.list.length = 0;
  });
  for (let i = 0; i < opts.boxes; i++) {
    try {
      await addBox(ctx, opts.boxCapabilities[i] ?? {});
    } catch (e) {
      // startEmulator undoes everything started so far (the boxes above included) and rejects.
      throw Object.assign(
        new Error(`edge box ${i + 1} of ${opts.boxes} could not start: ${(e as Error).message}`, {
          cause: e,
        }),
        {
          code: 'EBOXSTART',
        },
      );
    }
  }
}
