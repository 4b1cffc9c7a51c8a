import OpenAI, { toFile } from 'openai';
import { describe, expect, it } from 'vitest';
import { UnavailableRecognizer } from '../src/models/recognizer/index.js';
import { useEmulator } from './helpers/emulator.js';

// A machine with no speech recogniser: transcriptions say what to install, never invent words.
const h = useEmulator({
  inferenceRateLimits: false,
  inferenceModels: { recognizer: new UnavailableRecognizer(['pocketsphinx-en-us']) },
});

describe('transcriptions without a recogniser', () => {
  it('answers 503 model_unavailable naming the package, and model-status shows the model disabled', async () => {
    const client = new OpenAI({
      baseURL: `${h.baseUrl}/compat-a/v1`,
      apiKey: h.emu.keys.dashboardKey,
      maxRetries: 0,
    });
    const speech = Buffer.from(
      await (
        await client.audio.speech.create({
          model: 'avatar-tts',
          voice: 'slt',
          input: 'hello',
          response_format: 'wav',
        })
      ).arrayBuffer(),
    );
    const err = await client.audio.transcriptions
      .create({ model: 'avatar-asr', file: await toFile(speech, 'a.wav') })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    expect((err as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      code: 'model_unavailable',
      type: 'service_unavailable_error',
    });
    expect(String((err as Error).message)).toContain('apt-get install pocketsphinx-en-us');
    const status = await h.api('/api/model-status', { key: h.emu.keys.dashboardKey });
    expect(
      status.body.models.find((m: { model_id: string }) => m.model_id === 'avatar-asr').enabled,
    ).toBe(false);
  });
});
