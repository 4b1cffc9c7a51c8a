import * as inference from '../../../contract/operations/inference.js';
import type { App } from '../../context.js';
import type { InferenceServices } from '../services.js';
import { decodeRgba, editPng, generatePng, parseSize } from '../../../models/image/procedural.js';
import { invalid } from '../shared/errors.js';
import { implementInference } from '../shared/route.js';
import { readForm, formFile, formString } from './multipart.js';
import { forward, localModel, passToUpstream, resolveModel } from './resolve.js';

const DEFAULT_MODEL = 'avatar-image';
const IMAGE_BYTES = 25 * 1024 * 1024;

/**
 * Spec 4.12 images/generations and images/edits (edits payload not shown: OpenAI's
 * multipart form `image`, `mask`, `prompt`, `n`, `size`, `response_format`, PNG inputs).
 * Answers `{ created, data: [ { url } ] }` with URLs this emulator serves, or `b64_json`.
 */
export function registerImages(app: App, svc: InferenceServices): void {
  const answer = (orgId: string, pngs: Buffer[], format: string | undefined) => ({
    created: Math.floor(svc.ctx.clock.now() / 1000),
    data: pngs.map((p) =>
      format === 'b64_json'
        ? { b64_json: p.toString('base64') }
        : { url: svc.media.save(orgId, p, 'image/png') },
    ),
  });

  implementInference(
    app,
    svc,
    inference.imagesGenerate,
    async ({ body: b, auth: { caller, usage } }) => {
      const target = { model: localModel(svc, b.model ?? DEFAULT_MODEL, 'text-to-image') };
      const size = parseSize(b.size ?? '1024x1024');
      if (!size) throw invalid('size: WIDTHxHEIGHT, each 64 to 2048 (e.g. 1024x1024)', 'size');
      const pngs: Buffer[] = [];
      for (let i = 0; i < (b.n ?? 1); i++)
        pngs.push(await generatePng(b.prompt, size.width, size.height, i));
      usage.modelId = target.model.id;
      usage.images = pngs.length;
      return answer(caller.orgId, pngs, b.response_format);
    },
    { before: passToUpstream(svc, 'text-to-image', '/images/generations', DEFAULT_MODEL) },
  );

  implementInference(
    app,
    svc,
    inference.imagesEdit,
    async ({ c, raw, auth: { caller, usage } }) => {
      const form = await readForm(c, raw, IMAGE_BYTES * 2);
      const model = formString(form, 'model') ?? DEFAULT_MODEL;
      const target = resolveModel(svc, model, 'image-edit');
      if (target.kind === 'upstream')
        return forward(target.upstream, '/images/edits', {
          raw: form.raw,
          contentType: form.contentType,
        });
      const prompt = formString(form, 'prompt');
      if (!prompt) throw invalid('prompt: required', 'prompt');
      const imageFile = (await formFile(form, 'image')) ?? (await formFile(form, 'image[]'));
      if (!imageFile) throw invalid('image: required (a PNG file)', 'image');
      const image = decodeRgba(imageFile.bytes);
      if (!image) throw invalid('image: must be a PNG', 'image');
      const maskFile = await formFile(form, 'mask');
      const mask = maskFile ? decodeRgba(maskFile.bytes) : null;
      if (maskFile && !mask) throw invalid('mask: must be a PNG', 'mask');
      if (mask && (mask.width !== image.width || mask.height !== image.height)) {
        throw invalid(
          `mask: must be the size of the image (${image.width}x${image.height})`,
          'mask',
        );
      }
      const n = Number(formString(form, 'n') ?? '1');
      if (!Number.isInteger(n) || n < 1 || n > 10) throw invalid('n: an integer from 1 to 10', 'n');
      const format = formString(form, 'response_format');
      if (format && format !== 'url' && format !== 'b64_json')
        throw invalid('response_format: url or b64_json', 'response_format');
      const pngs: Buffer[] = [];
      for (let i = 0; i < n; i++) pngs.push(await editPng(image, mask, prompt, i));
      usage.modelId = target.model.id;
      usage.images = n;
      return answer(caller.orgId, pngs, format);
    },
  );
}
