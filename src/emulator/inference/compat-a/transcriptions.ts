import * as inference from '../../../contract/operations/inference.js';
import type { App } from '../../context.js';
import type { InferenceServices } from '../services.js';
import { toSrt, toVtt, transcribe } from '../tasks/transcribe.js';
import { invalid } from '../shared/errors.js';
import { implementInference } from '../shared/route.js';
import { formFile, formString, readForm } from './multipart.js';
import { forward, resolveModel } from './resolve.js';

const AUDIO_BYTES = 25 * 1024 * 1024;
const FORMATS = ['json', 'text', 'verbose_json', 'srt', 'vtt'];

/**
 * Spec 4.12 POST /compat-a/v1/audio/transcriptions: multipart `model`, `file` (an upload,
 * or a URL of audio this emulator served: ours), `response_format`, `language`. With
 * `verbose_json`: `{ task, language, duration, text, segments: [ { id, start, end, text } ] }`.
 */
export function registerTranscriptions(app: App, svc: InferenceServices): void {
  implementInference(app, svc, inference.transcriptions, async ({ c, raw, auth: { usage } }) => {
    const form = await readForm(c, raw, AUDIO_BYTES + 64 * 1024);
    const target = resolveModel(svc, formString(form, 'model'), 'speech-to-text');
    if (target.kind === 'upstream')
      return forward(
        target.upstream,
        '/audio/transcriptions',
        { raw: form.raw, contentType: form.contentType },
        c.req.raw.signal,
      );
    const format = formString(form, 'response_format') ?? 'json';
    if (!FORMATS.includes(format))
      throw invalid(`response_format: one of ${FORMATS.join(', ')}`, 'response_format');
    const file = await formFile(form, 'file');
    let audio = file?.bytes;
    if (!audio) {
      const url = formString(form, 'file');
      if (!url) throw invalid('file: required (an audio file upload)', 'file');
      audio = svc.media.fetchLocal(url) ?? undefined;
      if (!audio)
        throw invalid(
          'file: a URL must be one this emulator served (/inference/media/...) or a data: URL',
          'file',
        );
    }
    if (audio.length === 0) throw invalid('file: is empty', 'file');
    const t = await transcribe(svc, audio, formString(form, 'language'), c.req.raw.signal);
    usage.modelId = target.model.id;
    usage.audioSeconds = t.duration;
    if (format === 'text')
      return new Response(t.text + '\n', {
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      });
    if (format === 'srt')
      return new Response(toSrt(t), { headers: { 'content-type': 'text/plain; charset=utf-8' } });
    if (format === 'vtt')
      return new Response(toVtt(t), { headers: { 'content-type': 'text/vtt; charset=utf-8' } });
    if (format === 'json')
      return { text: t.text, usage: { type: 'duration' as const, seconds: Math.ceil(t.duration) } };
    return {
      task: 'transcribe' as const,
      language: t.language,
      duration: t.duration,
      text: t.text,
      segments: t.segments.map((s, id) => ({ id, start: s.startS, end: s.endS, text: s.text })),
      usage: { type: 'duration' as const, seconds: Math.ceil(t.duration) },
    };
  });
}
