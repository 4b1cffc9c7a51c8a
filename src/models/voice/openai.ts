/**
 * A Voice backed by any OpenAI-compatible `/audio/speech` endpoint (`--tts-url`, key in
 * AVATAR_TTS_API_KEY; issue 30 item 4): OpenAI, a Kokoro or Piper server, or the emulator's
 * own compat-a. It POSTs `{ model, input, voice, response_format: 'wav' }`; the answer is a
 * WAV (any rate, resampled to the pipeline's 16 kHz), or raw 24 kHz PCM16 when the server
 * says `audio/pcm` (OpenAI's `pcm` format). Such servers send no timings, so the Speech has
 * no phones and lip sync follows the audio's energy (src/media/lip-sync.ts). Failures are
 * UpstreamErrors (../upstream-error.ts); the box speaks that sentence with its local voice
 * instead (route.ts).
 */
import type { Speech, SynthesizeOptions, Voice } from '../voice.js';
import {
  UpstreamError,
  endpoint,
  errorFromFetch,
  errorFromResponse,
  readUpstreamBody,
} from '../upstream-error.js';
import { FLITE_SAMPLE_RATE } from './flite.js';
import { readWav, resample } from './pcm.js';

/** OpenAI's `pcm` format: 24 kHz mono signed 16-bit little-endian. */
const PCM_RATE = 24_000;

export interface OpenAIVoiceOptions {
  /** Base URL (`http://host:8880/v1`) or the full `/audio/speech` URL. */
  url: string;
  /** Default `tts-1`. */
  model?: string;
  /** Default `alloy`. */
  voice?: string;
  apiKey?: string;
  /** Longest a request may take, answer included (default 30 s). */
  timeoutMs?: number;
  /** Largest answer read (default UPSTREAM_BODY_BYTES, 50 MiB); over it: an UpstreamError. */
  maxBytes?: number;
}

export class OpenAIVoice implements Voice {
  readonly name = 'openai';
  readonly voices: readonly { id: string; lang: string }[];
  private readonly url: string;

  constructor(private readonly opts: OpenAIVoiceOptions) {
    this.url = endpoint(opts.url, '/audio/speech');
    this.voices = [{ id: opts.voice ?? 'alloy', lang: 'mul' }];
  }

  async synthesize(text: string, opts: SynthesizeOptions = {}): Promise<Speech> {
    opts.signal?.throwIfAborted();
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 30_000);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    let body: Buffer;
    let type: string;
    try {
      const res = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: this.opts.model ?? 'tts-1',
          input: text,
          voice: this.opts.voice ?? 'alloy',
          response_format: 'wav',
          ...(opts.shape?.rate ? { speed: Math.min(4, Math.max(0.25, opts.shape.rate)) } : {}),
        }),
        signal,
      });
      if (!res.ok) throw await errorFromResponse(this.url, res);
      type = res.headers.get('content-type') ?? '';
      body = await readUpstreamBody(this.url, res, this.opts.maxBytes);
    } catch (e) {
      throw errorFromFetch(this.url, e, opts.signal);
    }
    return this.speech(body, type);
  }

  private speech(body: Buffer, type: string): Speech {
    let read: { sampleRate: number; samples: Int16Array };
    if (body.subarray(0, 4).toString('latin1') === 'RIFF') {
      try {
        read = readWav(body);
      } catch (e) {
        throw this.bad(`a WAV it cannot read (${(e as Error).message})`);
      }
    } else if (/audio\/(pcm|l16)/i.test(type) && body.length % 2 === 0) {
      const samples = new Int16Array(body.length / 2);
      for (let i = 0; i < samples.length; i++) samples[i] = body.readInt16LE(i * 2);
      read = { sampleRate: PCM_RATE, samples };
    } else throw this.bad(`${body.length} bytes of ${type || 'no type'}, not WAV or PCM audio`);
    if (read.samples.length === 0) throw this.bad('no audio');
    const samples = resample(read.samples, read.sampleRate, FLITE_SAMPLE_RATE);
    return {
      sampleRate: FLITE_SAMPLE_RATE,
      samples,
      durationMs: Math.round((samples.length / FLITE_SAMPLE_RATE) * 1000),
    };
  }

  private bad(what: string): UpstreamError {
    return new UpstreamError('upstream_bad_response', `${this.url} answered with ${what}`);
  }
}
