import type { ServerResponse } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultParts, recognitionNotice } from '../src/edge/default-parts.js';
import { mouthTrack } from '../src/media/lip-sync.js';
import type { Speech, SynthesizeOptions, Voice } from '../src/models/voice.js';
import { languageVoice, OpenAIVoice, upstreamFirst, writeWav } from '../src/models/voice/index.js';
import { openSock, until, wsUrl, type Sock } from './helpers/edge.js';
import { mintSession, useEmulator, type Minted } from './helpers/emulator.js';
import { decodeAudio, voicedMs } from './helpers/media-audio.js';
import { json, startOpenAIStub, type OpenAIStub } from './helpers/openai-stub.js';
import { testSnapshot } from './helpers/turn-loop.js';

/** `--tts-url`: an OpenAI-compatible /audio/speech upstream speaks every reply (issue 30 item 4). */

/** A tone that rises and falls in loudness five times a second (not speech: easy to tell from flite). */
function pulses(ms: number, rate = 16000, hz = 440): Int16Array {
  const n = Math.round((ms * rate) / 1000);
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    const t = i / rate;
    const env = Math.max(0, Math.sin(2 * Math.PI * 5 * t));
    out[i] = Math.round(12000 * env * Math.sin(2 * Math.PI * hz * t));
  }
  return out;
}

/** Zero crossings per second / 2 over the loud 20 ms windows: the pitch of a pure tone. */
function toneHz(samples: Int16Array, rate = 16000): number {
  const win = rate / 50;
  let crossings = 0;
  let loud = 0;
  for (let o = 0; o + win <= samples.length; o += win) {
    let peak = 0;
    for (let i = o; i < o + win; i++) peak = Math.max(peak, Math.abs(samples[i]!));
    if (peak < 3000) continue;
    loud += win;
    for (let i = o + 1; i < o + win; i++) if (samples[i - 1]! < 0 !== samples[i]! < 0) crossings++;
  }
  return crossings / 2 / (loud / rate);
}

const wavOf = (ms: number) => writeWav(pulses(ms), 16000);
const answerWav = (res: ServerResponse, ms: number) => {
  res.writeHead(200, { 'content-type': 'audio/wav' });
  res.end(wavOf(ms));
};

/** A local voice that records what it was asked (the fallback). */
class LocalVoice implements Voice {
  readonly name = 'local';
  readonly voices = [{ id: 'x', lang: 'en' }];
  said: string[] = [];
  async synthesize(text: string, _opts?: SynthesizeOptions): Promise<Speech> {
    this.said.push(text);
    const samples = new Int16Array(1600).fill(1000);
    return {
      sampleRate: 16000,
      samples,
      durationMs: 100,
      phones: [{ text: 'aa', startMs: 0, endMs: 100 }],
    };
  }
}

const stub: OpenAIStub = await startOpenAIStub();
afterAll(() => stub.close());
/** The parts of the box below: --tts-url at the stub, notices into `lines`. */
const lines: string[] = [];
const ttsParts = await defaultParts({ ttsUrl: stub.url, log: (l) => lines.push(l) });

describe('OpenAIVoice against a local /audio/speech stub', () => {
  it("posts model, input, voice and wav with the key; the reply audio is the upstream's, the mouth follows its energy", async () => {
    stub.handler = (_req, res) => answerWav(res, 1200);
    const voice = new OpenAIVoice({ url: stub.url, apiKey: 'sk-tts' });
    const s = await voice.synthesize('Bonjour tout le monde.', { lang: 'fr' });
    const req = stub.requests.at(-1)!;
    expect(req.path).toBe('/v1/audio/speech');
    expect(req.headers.authorization).toBe('Bearer sk-tts');
    expect(JSON.parse(req.body.toString())).toEqual({
      model: 'tts-1',
      input: 'Bonjour tout le monde.',
      voice: 'alloy',
      response_format: 'wav',
    });
    expect(s.samples).toEqual(pulses(1200));
    expect(s.durationMs).toBe(1200);
    // No timings from the upstream: the mouth follows the audio's loudness (five pulses a second).
    expect(s.phones).toBeUndefined();
    const mouth = mouthTrack(s);
    expect(mouth(50)).toBeGreaterThan(0.5); // a pulse's peak
    expect(mouth(110)).toBeLessThan(0.2); // between pulses
  });

  it("reads OpenAI's raw `pcm` (24 kHz) and other WAV rates into the pipeline's 16 kHz", async () => {
    stub.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      res.end(Buffer.from(pulses(1000, 24000).buffer));
    };
    const s = await new OpenAIVoice({ url: stub.url }).synthesize('Hi.');
    expect(s.sampleRate).toBe(16000);
    expect(s.durationMs).toBe(1000);
    expect(Math.abs(toneHz(s.samples) - 440)).toBeLessThan(40);
  });

  it.each([
    [
      'a 500',
      (res: ServerResponse) => json(res, 500, { error: { message: 'model overloaded' } }),
      /upstream_failed: .*500: model overloaded/,
    ],
    [
      'a 401',
      (res: ServerResponse) => json(res, 401, { error: { message: 'bad key' } }),
      /upstream_unauthorized/,
    ],
    [
      'garbage',
      (res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>hello</html>');
      },
      /upstream_bad_response: .*not WAV or PCM audio/,
    ],
    [
      'a broken WAV',
      (res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'audio/wav' });
        res.end(Buffer.from('RIFF\0\0\0\0WAVEjunk'));
      },
      /upstream_bad_response/,
    ],
  ])('%s is an UpstreamError naming the URL, never a crash', async (_name, answer, message) => {
    stub.handler = (_req, res) => answer(res);
    await expect(new OpenAIVoice({ url: stub.url }).synthesize('Hi.')).rejects.toThrow(message);
  });

  it('a URL shown in an error or log line has no userinfo and no query', async () => {
    stub.handler = (_req, res) => json(res, 500, { error: { message: 'down' } });
    const port = new URL(stub.url).port;
    for (const url of [
      `http://127.0.0.1:${port}/v1?key=s3cret`,
      `http://alice:pw0rd@127.0.0.1:${port}/v1?key=s3cret`,
    ]) {
      const lines: string[] = [];
      const voice = upstreamFirst(new OpenAIVoice({ url }), new LocalVoice(), (l) => lines.push(l));
      await voice.synthesize('Hello there.');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`127.0.0.1:${port}/v1`);
      expect(lines[0]).not.toMatch(/s3cret|alice|pw0rd|key=/);
    }
    // The query still reaches the upstream (some servers take their key there).
    expect(stub.requests.at(-1)!.path).toBe('/v1/audio/speech?key=s3cret');
  });

  it('an answer over the size cap is refused as an UpstreamError, not read whole', async () => {
    stub.handler = (_req, res) => answerWav(res, 1200); // 38 KB
    await expect(
      new OpenAIVoice({ url: stub.url, maxBytes: 10_000 }).synthesize('Hi.'),
    ).rejects.toThrow(/upstream_bad_response: .*over 10000 bytes/);
    // Under the cap, the same answer is read.
    const s = await new OpenAIVoice({ url: stub.url, maxBytes: 100_000 }).synthesize('Hi.');
    expect(s.durationMs).toBe(1200);
  });

  it('an upstream that never answers is a timeout, bounded by timeoutMs', async () => {
    stub.handler = () => {}; // holds the request until the stub closes
    await expect(
      new OpenAIVoice({ url: stub.url, timeoutMs: 200 }).synthesize('Hi.'),
    ).rejects.toThrow(/upstream_timeout: .* did not answer in time/);
  });

  it('a failing upstream: the sentence is spoken by the local voice and one log line says why', async () => {
    stub.handler = (_req, res) => json(res, 500, { error: { message: 'down' } });
    const local = new LocalVoice();
    const lines: string[] = [];
    const voice = upstreamFirst(new OpenAIVoice({ url: stub.url }), local, (l) => lines.push(l));
    const s = await voice.synthesize('Hello there.');
    expect(local.said).toEqual(['Hello there.']);
    expect(s.durationMs).toBe(100);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^--tts-url failed: upstream_failed: .*500: down; this sentence is spoken by the local voice$/,
    );
    // A caller's abort is not a failure to cover up.
    const ac = new AbortController();
    ac.abort(new Error('barge-in'));
    await expect(voice.synthesize('Hello.', { signal: ac.signal })).rejects.toThrow('barge-in');
    expect(lines).toHaveLength(1);
  });
});

describe('which voice speaks what', () => {
  const english = new LocalVoice();
  const system = {
    said: [] as [string, string][],
    voiceFor: (lang: string | null | undefined) =>
      lang && ['fr', 'zh', 'de'].includes(lang.slice(0, 2)) ? lang : null,
    async synthesize(text: string, opts: SynthesizeOptions = {}) {
      system.said.push([text, opts.lang!]);
      return new LocalVoice().synthesize(text);
    },
  };
  const voice = languageVoice(english, system);

  it("English to flite; another language espeak-ng has to espeak-ng; the text's own script decides first", async () => {
    await voice.synthesize('Where did you grow up?', { lang: 'en' });
    await voice.synthesize("J'ai grandi dans un petit village.", { lang: 'fr' });
    await voice.synthesize('我在北京长大。', { lang: 'en' }); // Chinese text in a session asked in English
    await voice.synthesize('Marie', { lang: 'fr' }); // nothing tells: the asked language
    await voice.synthesize('Eu cresci numa aldeia.', { lang: 'pt' }); // no voice for it here: flite
    expect(system.said).toEqual([
      ["J'ai grandi dans un petit village.", 'fr'],
      ['我在北京长大。', 'zh'],
      ['Marie', 'fr'],
    ]);
    expect(english.said).toEqual(['Where did you grow up?', 'Eu cresci numa aldeia.']);
  });

  it('without espeak-ng everything is read by flite, as before', async () => {
    const only = new LocalVoice();
    await languageVoice(only, null).synthesize('我在北京长大。', { lang: 'zh-CN' });
    expect(only.said).toEqual(['我在北京长大。']);
  });
});

describe('the once-only notices', () => {
  it('a non-English session without --asr-url is named once per language', () => {
    const lines: string[] = [];
    const notice = recognitionNotice((l) => lines.push(l))!;
    const snap = (responseLanguage: string | null) => ({ ...testSnapshot('s'), responseLanguage });
    notice(snap('fr'));
    notice(snap('fr-FR'));
    notice(snap(null)); // the persona's own language (English)
    notice(snap('de'));
    notice(snap('en'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/"fr".*--asr-url/);
    expect(lines[1]).toMatch(/"de".*--asr-url/);
  });

  it('--asr-url given: no recognition notice; --tts-url given: no espeak-ng notice', async () => {
    const lines: string[] = [];
    const parts = await defaultParts({
      asrUrl: stub.url,
      ttsUrl: stub.url,
      log: (l) => lines.push(l),
    });
    expect(parts.opened).toBeUndefined();
    expect(lines).toEqual([]);
  });
});

describe("--tts-url on a box: replies on /mse are the upstream's audio", () => {
  const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0, edgeParts: ttsParts });

  /** A typed turn on a session: its `turn` event. */
  async function turnOf(m: Minted, events: Sock, text: string) {
    const r = await fetch(`${m.connect_url}/chat?token=${m.session_token}`, {
      method: 'POST',
      body: JSON.stringify({ text }),
    });
    const id = ((await r.json()) as { speech_id: string }).speech_id;
    return events.next((x) => x.type === 'turn' && x.speech_id === id, 30_000);
  }

  /** A rendering session asked `text`: its sockets and the turn. */
  async function ask(m: Minted, text: string) {
    const mse = await openSock(wsUrl(m.connect_url, '/mse', m.session_token));
    const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    return { mse, events, turn: await turnOf(m, events, text) };
  }

  /** The /mse audio once it holds `ms` of sound. */
  const sound = (mse: Sock, ms: number) =>
    until(
      async () => decodeAudio(Buffer.concat(mse.bin)),
      (p) => voicedMs(p) >= ms,
      30_000,
    );

  it("the reply is the stub's tone, not flite", async () => {
    stub.handler = (_req, res) => answerWav(res, 1000);
    const m = await mintSession(h, {}, { render: true });
    const { mse, events, turn } = await ask(m, 'Where did you grow up?');
    expect(turn.reply.length).toBeGreaterThan(0);
    const pcm = await sound(mse, 700);
    expect(Math.abs(toneHz(pcm) - 440)).toBeLessThan(40);
    expect(stub.requests.some((r) => r.path === '/v1/audio/speech')).toBe(true);
    mse.close();
    events.close();
  }, 60_000);

  it('an upstream that fails: the turn is answered (text and the local voice), one log line per failure, the box lives on', async () => {
    stub.handler = (_req, res) => json(res, 500, { error: { message: 'tts down' } });
    const before = lines.length;
    const m = await mintSession(h, {}, { render: true });
    const { mse, events, turn } = await ask(m, 'Where did you grow up?');
    expect(turn.reply.length).toBeGreaterThan(0);
    const pcm = await sound(mse, 500);
    // flite's voice, not the stub's tone.
    expect(Math.abs(toneHz(pcm) - 440)).toBeGreaterThan(80);
    const failed = lines.slice(before).filter((l) => l.startsWith('--tts-url failed'));
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]).toMatch(/upstream_failed: .*500: tts down/);
    // The next turn on the same session is answered too.
    expect((await turnOf(m, events, 'What do you do?')).reply.length).toBeGreaterThan(0);
    mse.close();
    events.close();
  }, 60_000);
});
