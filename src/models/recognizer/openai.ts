/**
 * A recogniser backed by any OpenAI-compatible `/audio/transcriptions` endpoint
 * (`--asr-url`, `--asr-model`, key in AVATAR_ASR_API_KEY): OpenAI, a faster-whisper or
 * whisper.cpp server, or the emulator's own compat-a. The audio goes up as a multipart WAV
 * with `response_format: verbose_json`; a server that refuses that format (400/422) is asked
 * again with `json`. Segments: the upstream's when it sends them, else one segment over the
 * speech the VAD found. Failures are UpstreamErrors (../upstream-error.ts).
 */
import { languageCode } from '../brain/language.js';
import type { Recognition, RecognitionSegment, Recognizer } from '../recognizer.js';
import { UpstreamError, endpoint, errorFromFetch, errorFromResponse } from '../upstream-error.js';
import { vadRegions } from './segments.js';
import { encodeWav } from './wav.js';

export interface OpenAIRecognizerOptions {
  /** Base URL (`http://host:8000/v1`) or the full `/audio/transcriptions` URL. */
  url: string;
  /** Default `whisper-1`. */
  model?: string;
  apiKey?: string;
  /** Default 60 s for the whole request. */
  timeoutMs?: number;
}

interface Verbose {
  text?: string;
  language?: string;
  segments?: { start?: number; end?: number; text?: string }[];
}

export class OpenAIRecognizer implements Recognizer {
  readonly name = 'openai';
  readonly available = true;
  private readonly url: string;

  constructor(private readonly opts: OpenAIRecognizerOptions) {
    this.url = endpoint(opts.url, '/audio/transcriptions');
  }

  async transcribe(
    samples: Int16Array,
    opts: { lang?: string; signal?: AbortSignal } = {},
  ): Promise<Recognition> {
    const wav = encodeWav(samples);
    const lang = languageCode(opts.lang);
    let res = await this.post(wav, 'verbose_json', lang, opts.signal);
    if (res.status === 400 || res.status === 422) {
      await res.body?.cancel();
      res = await this.post(wav, 'json', lang, opts.signal);
    }
    if (!res.ok) throw await errorFromResponse(this.url, res);
    const body = await this.read(res, opts.signal);
    const text = (body.text ?? '').trim();
    const language = languageCode(body.language) ?? lang ?? undefined;
    let segments: RecognitionSegment[] | undefined;
    if (Array.isArray(body.segments) && body.segments.length) {
      segments = body.segments.map((s) => ({
        startS: Number(s.start ?? 0),
        endS: Number(s.end ?? 0),
        text: (s.text ?? '').trim(),
      }));
    } else if (text) {
      const regions = await vadRegions(samples);
      segments = regions.length
        ? [{ startS: regions[0].startS, endS: regions[regions.length - 1].endS, text }]
        : [];
    }
    return {
      text,
      recognised: text.length > 0,
      ...(language ? { language } : {}),
      ...(segments ? { segments } : {}),
    };
  }

  private async post(
    wav: Buffer,
    format: string,
    lang: string | null,
    signal?: AbortSignal,
  ): Promise<Response> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'audio.wav');
    form.append('model', this.opts.model ?? 'whisper-1');
    form.append('response_format', format);
    if (lang) form.append('language', lang);
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 60_000);
    try {
      return await fetch(this.url, {
        method: 'POST',
        headers: this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {},
        body: form,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (e) {
      throw errorFromFetch(this.url, e, signal);
    }
  }

  private async read(res: Response, signal?: AbortSignal): Promise<Verbose> {
    try {
      const raw = await res.text();
      if ((res.headers.get('content-type') ?? '').includes('json'))
        return JSON.parse(raw) as Verbose;
      return { text: raw };
    } catch (e) {
      if (signal?.aborted) throw signal.reason;
      throw new UpstreamError(
        'upstream_bad_response',
        `${this.url} answered with a body that is not a transcription`,
      );
    }
  }
}
