/**
 * The recogniser (issue 8 item 4) on real speech synthesized by flite. One case table runs
 * against pocketsphinx (when installed: .ci/run installs it) and against the
 * OpenAI-compatible recogniser talking to a stub `/audio/transcriptions` on a loopback port
 * that transcribes with pocketsphinx too, so both are judged on the words they return. Then
 * the honest fallback, the factory's order, and the OpenAI client's request and errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { Recognition, Recognizer } from '../src/models/recognizer.js';
import {
  OpenAIRecognizer,
  PocketsphinxRecognizer,
  UnavailableRecognizer,
  createRecognizer,
  parseTimedWords,
  probePocketsphinx,
} from '../src/models/recognizer/index.js';
import { UpstreamError } from '../src/models/upstream-error.js';
import { json, startOpenAIStub, type OpenAIStub, type StubRequest } from './helpers/openai-stub.js';
import { concat, noise, pcm16, silence, speak } from './helpers/speech.js';

const probe = probePocketsphinx();
const hasPocketsphinx = Boolean(probe.binary && probe.modelDir);

/** Share of `keys` found among the recognised words (recognisers miss a word now and then). */
const found = (text: string, keys: string[]) => {
  const words = new Set(text.toLowerCase().split(/[^a-z']+/));
  return keys.filter((k) => words.has(k)).length / keys.length;
};

async function formOf(req: StubRequest): Promise<FormData> {
  return new Response(new Uint8Array(req.body), {
    headers: { 'content-type': String(req.headers['content-type']) },
  }).formData();
}

let stub: OpenAIStub;
beforeAll(async () => {
  stub = await startOpenAIStub();
});
afterAll(() => stub.close());

/**
 * pocketsphinx is deterministic: the table's pocketsphinx run keeps what it heard for each
 * recording, and the stub behind the openai recogniser answers the same samples from there
 * instead of loading the model again (keyed by the samples, so other audio is recognised).
 */
const heard = new Map<string, Promise<Recognition>>();
const keyOf = (samples: Int16Array) => createHash('sha256').update(samples).digest('hex');
class RememberingPocketsphinx extends PocketsphinxRecognizer {
  override transcribe(samples: Int16Array, opts?: Parameters<Recognizer['transcribe']>[1]) {
    const r = super.transcribe(samples, opts);
    if (!opts) heard.set(keyOf(samples), r);
    return r;
  }
}
const pocketsphinxOnce = (samples: Int16Array): Promise<Recognition> =>
  heard.get(keyOf(samples)) ??
  new RememberingPocketsphinx({ binary: probe.binary! }).transcribe(samples);

const impls: [string, () => Recognizer][] = [
  ['pocketsphinx', () => new RememberingPocketsphinx({ binary: probe.binary! })],
  [
    'openai',
    () => {
      // The stub is an OpenAI-compatible server whose model is pocketsphinx.
      stub.handler = async (req, res) => {
        const form = await formOf(req);
        const file = form.get('file') as File;
        const r = await pocketsphinxOnce(pcm16(Buffer.from(await file.arrayBuffer())));
        json(res, 200, {
          task: 'transcribe',
          language: 'english',
          duration: 0,
          text: r.text,
          segments: (r.segments ?? []).map((s) => ({ start: s.startS, end: s.endS, text: s.text })),
        });
      };
      return new OpenAIRecognizer({ url: stub.url });
    },
  ],
];

describe.skipIf(!hasPocketsphinx).each(impls)('recogniser %s', (_name, make) => {
  it('recognises the words of a spoken question', async () => {
    const r = await make().transcribe(
      concat(silence(300), await speak('What is your name and where do you live?'), silence(300)),
    );
    expect(r.recognised).toBe(true);
    expect(r.language).toBe('en');
    expect(found(r.text, ['what', 'name', 'where', 'do', 'live'])).toBeGreaterThanOrEqual(0.8);
  });

  it('recognises a longer sentence', async () => {
    const r = await make().transcribe(
      await speak('I would like to book a table for two people tomorrow evening.'),
    );
    expect(
      found(r.text, ['like', 'book', 'table', 'two', 'people', 'tomorrow', 'evening']),
    ).toBeGreaterThanOrEqual(0.7);
  });

  it('splits segments where the speaker pauses', async () => {
    const a = await speak('Good morning.');
    const b = await speak('See you tomorrow at the station.');
    const r = await make().transcribe(concat(silence(300), a, silence(1500), b, silence(300)));
    expect(r.segments).toHaveLength(2);
    const [s1, s2] = r.segments!;
    expect(s1.text).toMatch(/morning/);
    expect(s2.text).toMatch(/tomorrow/);
    expect(s2.startS).toBeGreaterThan(s1.endS + 1);
    expect(s2.endS).toBeLessThanOrEqual((4800 + a.length + 24000 + b.length + 4800) / 16000 + 0.01);
  });

  it('hears no words in silence or noise', async () => {
    for (const audio of [silence(1500), noise(1500, 800, 3)]) {
      const r = await make().transcribe(audio);
      expect(r.recognised).toBe(false);
      expect(r.text).toBe('');
    }
  });
});

describe.skipIf(!hasPocketsphinx)('pocketsphinx', () => {
  it('says it has no model for another language instead of guessing English words', async () => {
    const r = await new PocketsphinxRecognizer({ binary: probe.binary! }).transcribe(
      await speak('Hello there'),
      { lang: 'fr-FR' },
    );
    expect(r.recognised).toBe(false);
    expect(r.text).toMatch(/English model only.*--asr-url/);
  });

  it('stops pocketsphinx when the caller aborts', async () => {
    const ctrl = new AbortController();
    const pending = new PocketsphinxRecognizer({ binary: probe.binary! }).transcribe(
      await speak('I would like to book a table for two.'),
      { signal: ctrl.signal },
    );
    ctrl.abort(new Error('session ended'));
    await expect(pending).rejects.toThrow('session ended');
  });

  it('hears speech whose sample count is not a whole number of milliseconds', async () => {
    // 2 s + 7 samples: the audio lasts a fractional number of ms, which must not reach
    // spawn's timeout (Node refuses a fractional one and every such recognition failed).
    const s = await speak('Good morning.');
    const odd = new Int16Array(16_000 * 2 + 7);
    odd.set(s.subarray(0, odd.length));
    const r = await new PocketsphinxRecognizer({ binary: probe.binary! }).transcribe(odd);
    expect(r.text).toMatch(/morning/);
  });

  it('accepts en-US and runs calls side by side within its limit', async () => {
    const rec = new PocketsphinxRecognizer({ binary: probe.binary!, maxConcurrent: 1 });
    const s = await speak('Good morning.');
    const rs = await Promise.all([
      rec.transcribe(s, { lang: 'en-US' }),
      rec.transcribe(s),
      rec.transcribe(s),
    ]);
    for (const r of rs) expect(r.text).toMatch(/morning/);
  });
});

describe('pocketsphinx output', () => {
  it('reads word timings and drops fillers and alternative-pronunciation marks', () => {
    const out =
      'hello what is your name\n<s> 0.000 0.110 0.9999\nhello 0.120 0.620 0.78\n<sil> 0.630 0.670 0.48\nyour(2) 1.020 1.220 0.54\n[NOISE] 1.3 1.4 1\nname 1.230 1.480 1.000000\n</s> 2.7 2.8 1\n';
    expect(parseTimedWords(out)).toEqual([
      { text: 'hello', startS: 0.12, endS: 0.62 },
      { text: 'your', startS: 1.02, endS: 1.22 },
      { text: 'name', startS: 1.23, endS: 1.48 },
    ]);
  });
});

describe('the honest fallback', () => {
  it('says no recogniser is installed and what to install, and invents no words', async () => {
    const r = await new UnavailableRecognizer().transcribe(await speak('What is your name?'));
    expect(r.recognised).toBe(false);
    expect(r.text).toContain('apt-get install pocketsphinx pocketsphinx-en-us');
    expect(r.text).toContain('--asr-url');
    expect(r.text).not.toMatch(/\bname\b/i);
  });

  it('is chosen when pocketsphinx is not on PATH, and names the missing package', async () => {
    const rec = createRecognizer({ env: { PATH: '/nonexistent' } });
    expect(rec.available).toBe(false);
    const r = await rec.transcribe(silence(500));
    expect(r.text).toContain('apt-get install pocketsphinx');
  });

  it.skipIf(!hasPocketsphinx)('is not chosen when pocketsphinx is installed', () => {
    expect(createRecognizer().name).toBe('pocketsphinx');
    expect(createRecognizer({ pocketsphinx: false }).name).toBe('none');
  });

  it('gives way to --asr-url, which wins over pocketsphinx', () => {
    const rec = createRecognizer({ asrUrl: 'http://127.0.0.1:9/v1' });
    expect(rec.name).toBe('openai');
    expect(rec.available).toBe(true);
    expect(() => createRecognizer({ asrUrl: 'not a url' })).toThrow(
      /--asr-url must be an http\(s\) URL/,
    );
  });
});

describe('openai recogniser', () => {
  it('uploads a 16 kHz WAV as multipart with model, verbose_json, language and key', async () => {
    stub.handler = (_req, res) =>
      json(res, 200, {
        text: 'hola',
        language: 'spanish',
        segments: [{ start: 0.1, end: 0.6, text: ' hola' }],
      });
    const samples = await speak('Hello');
    const rec = createRecognizer({
      asrUrl: stub.url,
      asrModel: 'whisper-large',
      env: { AVATAR_ASR_API_KEY: 'sk-asr' },
    });
    const r = await rec.transcribe(samples, { lang: 'es-MX' });
    expect(r).toEqual({
      text: 'hola',
      recognised: true,
      language: 'es',
      segments: [{ startS: 0.1, endS: 0.6, text: 'hola' }],
    });
    const req = stub.requests.at(-1)!;
    expect(req.path).toBe('/v1/audio/transcriptions');
    expect(req.headers.authorization).toBe('Bearer sk-asr');
    const form = await formOf(req);
    expect(form.get('model')).toBe('whisper-large');
    expect(form.get('response_format')).toBe('verbose_json');
    expect(form.get('language')).toBe('es');
    const sent = pcm16(Buffer.from(await (form.get('file') as File).arrayBuffer()));
    expect(Array.from(sent)).toEqual(Array.from(samples));
  });

  it('asks again with json when the server refuses verbose_json, and finds segments with the VAD', async () => {
    stub.handler = async (req, res) => {
      const form = await formOf(req);
      if (form.get('response_format') === 'verbose_json')
        return json(res, 400, { error: { message: 'unsupported response_format' } });
      json(res, 200, { text: 'good morning' });
    };
    const r = await new OpenAIRecognizer({ url: stub.url }).transcribe(
      concat(silence(1000), await speak('Good morning.'), silence(500)),
    );
    expect(r.text).toBe('good morning');
    expect(r.segments).toHaveLength(1);
    expect(r.segments![0].startS).toBeGreaterThanOrEqual(0.9);
  });

  it('maps upstream failures to clear errors', async () => {
    stub.handler = (_req, res) => json(res, 401, { error: { message: 'Invalid API key' } });
    const err = await new OpenAIRecognizer({ url: stub.url })
      .transcribe(silence(500))
      .catch((e) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.code).toBe('upstream_unauthorized');
    expect(err.detail).toMatch(/Invalid API key/);
    const gone = await startOpenAIStub();
    await gone.close();
    const err2 = await new OpenAIRecognizer({ url: gone.url })
      .transcribe(silence(500))
      .catch((e) => e);
    expect(err2.code).toBe('upstream_unreachable');
  });
});
