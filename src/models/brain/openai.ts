/**
 * A brain backed by any OpenAI-compatible chat endpoint (`--llm-url`, `--llm-model`, key in
 * AVATAR_LLM_API_KEY): OpenAI, a vLLM / llama.cpp / Ollama server, or the emulator's own
 * `/compat-a/v1`. It streams (`stream: true`, Server-Sent Events parsed by
 * eventsource-parser) and re-chunks the tokens into whole sentences (SentenceChunker), so
 * the edge can speak the first sentence while the rest is still being generated.
 *
 * What the session froze reaches the model as text: persona name, backstory and memory
 * block passed in `persona` are appended to the system message unless it already contains
 * them, and `language` adds "Reply in <language>". Model: `--llm-model`, else the request's.
 * Usage: the upstream's `usage` when it sends one (`stream_options.include_usage`), else
 * counted with `countTokens` like the local brain. Failures are UpstreamErrors (see
 * ../upstream-error.ts); the caller's own abort is re-thrown as its reason.
 * The request starts when `deltas` is first iterated; `usage` settles when it ends.
 */
import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { Brain, BrainMessage, BrainRequest, BrainUsage } from '../brain.js';
import { UpstreamError, endpoint, errorFromFetch, errorFromResponse } from '../upstream-error.js';
import { displayName } from './knowledge.js';
import { languageCode } from './language.js';
import { SentenceChunker } from './sentence-chunker.js';
import { countTokens } from './text.js';

export interface OpenAIBrainOptions {
  /** Base URL (`http://host:8000/v1`) or the full `/chat/completions` URL. */
  url: string;
  model?: string;
  apiKey?: string;
  /** How long to wait for the upstream's response headers (default 30 s). */
  timeoutMs?: number;
  /** How long the stream may go quiet between two events before it is given up (default 30 s). */
  idleTimeoutMs?: number;
}

interface Chunk {
  choices?: {
    delta?: { content?: string | null };
    message?: { content?: string | null };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string } | string;
}

export class OpenAIBrain implements Brain {
  readonly name = 'openai';
  private readonly url: string;

  constructor(private readonly opts: OpenAIBrainOptions) {
    this.url = endpoint(opts.url, '/chat/completions');
  }

  reply(req: BrainRequest): { deltas: AsyncIterable<string>; usage: Promise<BrainUsage> } {
    let settle!: { resolve: (u: BrainUsage) => void; reject: (e: unknown) => void };
    const usage = new Promise<BrainUsage>((resolve, reject) => (settle = { resolve, reject }));
    usage.catch(() => {}); // the error also surfaces from `deltas`; an unread usage must not crash the process
    const self = this;
    async function* deltas(): AsyncGenerator<string> {
      let said = '';
      let settled = false;
      let upstreamDone = false;
      const it = self.stream(req);
      try {
        for (let r = await it.next(); ; r = await it.next()) {
          if (r.done) {
            upstreamDone = true;
            settled = true;
            settle.resolve(r.value);
            return;
          }
          said += r.value;
          yield r.value;
          // A barge-in between deltas ends the reply even when the text is all here.
          req.signal?.throwIfAborted();
        }
      } catch (e) {
        settled = true;
        settle.reject(e);
        throw e;
      } finally {
        if (!upstreamDone) await it.return(undefined as never).catch(() => {}); // closes the upstream stream
        // The consumer stopped early (barge-in): usage covers what was received.
        if (!settled) {
          const promptTokens = upstreamMessages(req).reduce(
            (n, m) => n + countTokens(m.content),
            0,
          );
          settle.resolve({
            promptTokens,
            completionTokens: countTokens(said),
            finishReason: 'stop',
          });
        }
      }
    }
    return { deltas: deltas(), usage };
  }

  private async *stream(req: BrainRequest): AsyncGenerator<string, BrainUsage> {
    const messages = upstreamMessages(req);
    const body = {
      model: this.opts.model ?? req.model ?? 'default',
      messages,
      stream: true,
      stream_options: { include_usage: true },
      ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    };
    const { res, ctrl, release } = await this.post(body, req.signal);
    // A stream that goes quiet would leave the avatar "thinking" forever: give it up.
    const idleMs = this.opts.idleTimeoutMs ?? 30_000;
    const quiet = () => ctrl.abort(new DOMException('the stream went quiet', 'TimeoutError'));
    let idle = setTimeout(quiet, idleMs);
    const kick = () => {
      clearTimeout(idle);
      idle = setTimeout(quiet, idleMs);
    };
    const type = res.headers.get('content-type') ?? '';
    let text = '';
    let finish: string | null | undefined;
    let reported: Chunk['usage'];
    const chunker = new SentenceChunker();
    const take = (c: Chunk) => {
      if (c.error)
        throw new UpstreamError(
          'upstream_failed',
          `${this.url} sent an error: ${typeof c.error === 'string' ? c.error : (c.error.message ?? 'unknown')}`,
        );
      const choice = c.choices?.[0];
      const piece = choice?.delta?.content ?? choice?.message?.content ?? '';
      finish = choice?.finish_reason ?? finish;
      if (c.usage) reported = c.usage;
      text += piece;
      return piece ? chunker.push(piece) : [];
    };
    try {
      if (type.includes('application/json')) {
        // A server that ignores `stream: true` answers with one completion object.
        yield* take(await readJson<Chunk>(res, this.url));
      } else if (type.includes('text/event-stream')) {
        const events = res
          .body!.pipeThrough(new TextDecoderStream())
          .pipeThrough(new EventSourceParserStream());
        for await (const ev of events as unknown as AsyncIterable<{ data: string }>) {
          kick();
          if (ev.data === '[DONE]') break;
          let c: Chunk;
          try {
            c = JSON.parse(ev.data) as Chunk;
          } catch {
            throw new UpstreamError(
              'upstream_bad_response',
              `${this.url} sent an event that is not JSON`,
            );
          }
          yield* take(c);
        }
      } else {
        await res.body?.cancel();
        throw new UpstreamError(
          'upstream_bad_response',
          `${this.url} answered with ${type || 'no content type'}, not an event stream`,
        );
      }
    } catch (e) {
      throw errorFromFetch(this.url, ctrl.signal.reason ?? e, req.signal);
    } finally {
      clearTimeout(idle);
      release();
    }
    yield* chunker.flush();
    if (!text && finish === undefined)
      throw new UpstreamError(
        'upstream_bad_response',
        `${this.url} ended the stream without a reply`,
      );
    return {
      promptTokens:
        reported?.prompt_tokens ?? messages.reduce((n, m) => n + countTokens(m.content), 0),
      completionTokens: reported?.completion_tokens ?? countTokens(text),
      finishReason: finish === 'length' ? 'length' : 'stop',
    };
  }

  /**
   * The tool verdict (spec 6.2 step 1): the upstream's own tool calling, non-streamed,
   * `tool_choice: auto`; its first tool call, or null when it calls none.
   */
  async verdict(
    req: BrainRequest,
    tools: readonly { name: string; description: string; input_schema: Record<string, unknown> }[],
  ) {
    const { res, release } = await this.post(
      {
        model: this.opts.model ?? req.model ?? 'default',
        messages: upstreamMessages(req),
        stream: false,
        tools: tools.map((t) => ({
          type: 'function',
          function: { name: t.name, description: t.description, parameters: t.input_schema },
        })),
        tool_choice: 'auto',
      },
      req.signal,
    );
    try {
      const body = await readJson<{
        choices?: {
          message?: { tool_calls?: { function?: { name?: string; arguments?: string } }[] };
        }[];
      }>(res, this.url);
      const call = body.choices?.[0]?.message?.tool_calls?.[0]?.function;
      if (!call?.name || !tools.some((t) => t.name === call.name)) return null;
      let args: unknown = {};
      try {
        args = JSON.parse(call.arguments || '{}');
      } catch {
        args = {};
      }
      return {
        tool: call.name,
        args:
          args && typeof args === 'object' && !Array.isArray(args)
            ? (args as Record<string, unknown>)
            : {},
      };
    } finally {
      release();
    }
  }

  /** Sends the request; `ctrl` aborts it (and its body), `release` unhooks the caller's signal. */
  private async post(
    body: unknown,
    signal?: AbortSignal,
  ): Promise<{ res: Response; ctrl: AbortController; release: () => void }> {
    const ctrl = new AbortController();
    const onAbort = () => ctrl.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const release = () => signal?.removeEventListener('abort', onAbort);
    if (signal?.aborted) onAbort();
    const timer = setTimeout(
      () => ctrl.abort(new DOMException('no response headers in time', 'TimeoutError')),
      this.opts.timeoutMs ?? 30_000,
    );
    try {
      const res = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream, application/json',
          ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal: ctrl.signal,
      });
      if (!res.ok) throw await errorFromResponse(this.url, res);
      return { res, ctrl, release };
    } catch (e) {
      release();
      throw e instanceof UpstreamError
        ? e
        : errorFromFetch(this.url, ctrl.signal.reason ?? e, signal);
    } finally {
      clearTimeout(timer);
    }
  }
}

async function readJson<T>(res: Response, url: string): Promise<T> {
  try {
    return (await res.json()) as T;
  } catch {
    throw new UpstreamError(
      'upstream_bad_response',
      `${url} answered with JSON it could not parse`,
    );
  }
}

/** The conversation as the upstream sees it: persona facts and reply language folded in. */
export function upstreamMessages(req: BrainRequest): BrainMessage[] {
  const sys = req.messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');
  const extra: string[] = [];
  const p = req.persona;
  const name = displayName(p?.name);
  if (name && !sys.includes(name)) extra.push(`Your name is ${name}.`);
  if (p?.backstory?.trim() && !sys.includes(p.backstory.trim()))
    extra.push(`Your backstory: ${p.backstory.trim()}`);
  if (p?.memory?.trim() && !sys.includes(p.memory.trim()))
    extra.push(`What you remember about the user: ${p.memory.trim()}`);
  if (req.language?.trim()) {
    const code = languageCode(req.language);
    const name =
      (code && new Intl.DisplayNames(['en'], { type: 'language' }).of(code)) || req.language.trim();
    extra.push(`Reply in ${name} unless the user asks for another language.`);
  }
  if (extra.length === 0) return req.messages;
  const first = req.messages[0];
  if (first?.role === 'system')
    return [
      { role: 'system', content: `${first.content}\n\n${extra.join('\n')}` },
      ...req.messages.slice(1),
    ];
  return [{ role: 'system', content: extra.join('\n') }, ...req.messages];
}
