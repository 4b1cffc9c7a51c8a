import * as inference from '../../../contract/operations/inference.js';
import type { App } from '../../context.js';
import type { InferenceServices } from '../services.js';
import { encodeSpeech, SPEECH_FORMATS } from '../tasks/audio-codec.js';
import { openAiVoiceNames, pickVoice } from '../tasks/voices.js';
import { InferenceError, invalid } from '../shared/errors.js';
import { implementInference } from '../shared/route.js';
import { localModel, passToUpstream } from './resolve.js';

/** Spec 4.12 POST /compat-a/v1/audio/speech: the Voice the edge speaks with; the body is the audio file. */
export function registerSpeech(app: App, svc: InferenceServices): void {
  implementInference(
    app,
    svc,
    inference.speech,
    async ({ c, body: b, auth: { usage } }) => {
      const target = { model: localModel(svc, b.model, 'text-to-speech') };
      const voice = svc.models.voice;
      if (!voice)
        throw new InferenceError(
          503,
          'model_unavailable',
          `${target.model.id} has no Voice in this emulator`,
        );
      const id = pickVoice(voice, b.voice);
      if (!id) {
        throw invalid(
          `voice: ${b.voice} is not a voice here; use ${voice.voices.map((v) => v.id).join(', ')} or ${openAiVoiceNames.join(', ')}`,
          'voice',
        );
      }
      const format = b.response_format ?? 'mp3';
      const speech = await voice.synthesize(b.input, {
        shape: { voice: id, ...(b.speed ? { rate: b.speed } : {}) },
        signal: c.req.raw.signal,
      });
      const bytes = await encodeSpeech(speech.samples, speech.sampleRate, format, c.req.raw.signal);
      usage.modelId = target.model.id;
      usage.audioSeconds = speech.durationMs / 1000;
      return new Response(new Uint8Array(bytes), {
        headers: {
          'content-type': SPEECH_FORMATS[format].type,
          'content-length': String(bytes.length),
        },
      });
    },
    { before: passToUpstream(svc, 'text-to-speech', '/audio/speech') },
  );
}
