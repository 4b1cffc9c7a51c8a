import { TaskError } from '../jobs/queue.js';
import type { JobRow } from '../jobs/store.js';
import type { InferenceServices } from '../services.js';
import { parsePayload, schemas } from './payloads.js';
import { encodeSpeech, SPEECH_FORMATS } from './audio-codec.js';
import { pickVoice } from './voices.js';
import { transcribe } from './transcribe.js';
import { InferenceError } from '../shared/errors.js';

/** Tasks answered by the pluggable parts (Brain, Voice, Recognizer). */
export async function modelTasks(
  svc: InferenceServices,
  job: JobRow,
  payload: unknown,
  signal: AbortSignal,
): Promise<unknown> {
  switch (job.task) {
    case 'chat': {
      const p = parsePayload(schemas.chat, payload);
      const brain = svc.models.brain;
      if (!brain) throw new TaskError('model_unavailable', 'no Brain in this emulator');
      const { deltas, usage } = brain.reply({
        messages: p.messages,
        model: job.model_id,
        maxTokens: p.max_tokens,
        signal,
      });
      let text = '';
      for await (const d of deltas) text += d;
      const u = await usage;
      return {
        text,
        usage: {
          prompt_tokens: u.promptTokens,
          completion_tokens: u.completionTokens,
          total_tokens: u.promptTokens + u.completionTokens,
        },
      };
    }
    case 'text-to-speech': {
      const p = parsePayload(schemas['text-to-speech'], payload);
      const voice = svc.models.voice;
      if (!voice) throw new TaskError('model_unavailable', 'no Voice in this emulator');
      const id = pickVoice(voice, p.voice);
      if (!id)
        throw new TaskError(
          'invalid_payload',
          `payload.voice: ${p.voice} is not a voice here (GET /api/voice/models)`,
        );
      const speech = await voice.synthesize(p.input, {
        shape: { voice: id, ...(p.speed ? { rate: p.speed } : {}) },
        signal,
      });
      const format = p.response_format ?? 'wav';
      const bytes = await encodeSpeech(speech.samples, speech.sampleRate, format, signal);
      const type = SPEECH_FORMATS[format].type;
      return {
        audio: {
          url: svc.media.save(job.org_id, bytes, type),
          content_type: type,
          duration_s: speech.durationMs / 1000,
          voice: id,
        },
      };
    }
    case 'speech-to-text': {
      const p = parsePayload(schemas['speech-to-text'], payload);
      const audio = svc.media.fetchLocal(p.audio_url);
      if (!audio)
        throw new TaskError(
          'invalid_payload',
          'payload.audio_url: audio this emulator served (/inference/media/...) or a data: URL',
        );
      try {
        const t = await transcribe(svc, audio, p.language, signal);
        return {
          text: t.text,
          language: t.language,
          duration: t.duration,
          segments: t.segments.map((s) => ({ start: s.startS, end: s.endS, text: s.text })),
        };
      } catch (e) {
        if (e instanceof InferenceError) throw new TaskError(e.code, e.message);
        throw e;
      }
    }
    default:
      throw new TaskError(
        'unsupported_task',
        `task ${job.task} is not available in this emulator yet`,
      );
  }
}
